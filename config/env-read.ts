import { z } from 'zod';

/** The environment as the readers take it: a plain record, so a test passes one by hand. */
export type EnvRecord = Readonly<Record<string, string | undefined>>;

/** One variable a reader reads into one field: its name, the zod schema its text must pass, and where else to look. */
export interface VariableRow {
  env: string;
  schema: z.ZodType;
  /** A shared variable read when `env` is unset (OPENAI_API_KEY behind IWB_<ROLE>_API_KEY). */
  fallback?: string;
  /** An error shows "(hidden)" instead of the value. */
  secret?: boolean;
}

export type RowsShape<T extends Record<string, VariableRow>> = { [K in keyof T]: T[K]['schema'] };
export type RowsValue<T extends Record<string, VariableRow>> = z.output<z.ZodObject<RowsShape<T>>>;

/** The zod object of a set of rows, typed field by field from the rows' own schemas. */
export function rowsSchema<T extends Record<string, VariableRow>>(rows: T): z.ZodObject<RowsShape<T>> {
  const shape = Object.fromEntries(Object.entries(rows).map(([key, row]) => [key, row.schema]));
  return z.object(shape) as z.ZodObject<RowsShape<T>>;
}

function nonEmpty(value: string | undefined): string | undefined {
  const v = value?.trim();
  return v === undefined || v === '' ? undefined : v;
}

/**
 * The one env-reading loop: each row's variable (or its fallback), trimmed, blank taken as unset, parsed by
 * the rows' schema; an error names the variable the user actually set and the value it held.
 */
export function readVariables<T extends Record<string, VariableRow>>(rows: T, env: EnvRecord): RowsValue<T> {
  const raw: Record<string, string> = {};
  const source: Record<string, string> = {};
  for (const [key, row] of Object.entries(rows)) {
    for (const name of row.fallback === undefined ? [row.env] : [row.env, row.fallback]) {
      const value = nonEmpty(env[name]);
      if (value === undefined) continue;
      raw[key] = value;
      source[key] = name;
      break;
    }
  }
  const parsed = rowsSchema(rows).safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const key = String(issue.path[0]);
  const row = rows[key]!;
  const shown = row.secret ? '(hidden)' : JSON.stringify(raw[key]);
  throw new Error(`environment variable ${source[key] ?? row.env}: ${issue.message} (got ${shown})`);
}
