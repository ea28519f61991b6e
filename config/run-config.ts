import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeAtomicSync } from '../protocol/atomic-write.js';
import { DEBIAN_CHROMIUM } from './chromium.js';
import { declareEnv } from './env-registry.js';
import { JUDGE_TABLE, SETTINGS_TABLE, type SettingRow } from './settings-table.js';
import { ROLE_FIELDS, ROLES, roleVariable } from './roles.js';
import { limitVariables } from './role-limits.js';

/**
 * The run's settings, resolved once by the runner (environment and config file, checked by launch/start.ts)
 * and frozen into a file of the run folder that its workers read instead of the environment: a worker cannot
 * see another profile, dataset or judge mode than the runner checked, whatever its own environment says.
 *
 * The settings are kept as the text each row of config/settings-table.ts reads, so the runner and its workers
 * parse them with the one reader (settingsOf in config/settings.ts) and a row added to the table is frozen
 * with no change here. The model roles are frozen too (model, endpoint, sampling, limits), all but their API
 * keys, which stay out of the run folder: workers take only the keys from the environment they inherit
 * (config/env.ts runEnv), so a worker cannot judge with another model than the runner checked.
 */
export const RUN_CONFIG_VARIABLE = declareEnv('IWB_RUN_CONFIG', 'set by a Playwright run for its workers: the frozen run config (settings and config file, resolved once by the runner)');

const CHROMIUM_SOURCES = ['IWB_CHROMIUM', ...DEBIAN_CHROMIUM.map((d) => d.source), 'playwright'] as const;

export const RunConfigSchema = z.object({
  schemaVersion: z.literal(1),
  /** The folder the runner resolved relative paths (run, report and allure folders) against. */
  cwd: z.string().min(1),
  /** Every settings, judge and role variable (but the keys) the environment or the config file set, as text; an absent one is unset. */
  variables: z.record(z.string().regex(/^(IWB|OPENAI)_[A-Z0-9_]+$/), z.string()).refine((v) => !SECRET_VARIABLES.some((k) => k in v), { message: 'an API key is never written to a run config' }),
  /** The browser the runner found (config/chromium.ts), so a worker does not look again; null when none is. */
  chromium: z.object({ path: z.string().min(1), source: z.enum(CHROMIUM_SOURCES) }).nullable(),
});
export type RunConfig = z.infer<typeof RunConfigSchema>;

/** A role field whose variable is never written to the run folder (the API keys and their shared fallback). */
const SECRET_FIELDS = Object.entries(ROLE_FIELDS).filter(([, row]) => 'secret' in row && row.secret);

/** The variables that stay in the environment: each role's API key and the shared OPENAI_API_KEY. */
export const SECRET_VARIABLES: readonly string[] = [
  ...ROLES.flatMap((role) => SECRET_FIELDS.map(([field]) => roleVariable(role, field as keyof typeof ROLE_FIELDS))),
  ...SECRET_FIELDS.flatMap(([, row]) => ('fallback' in row ? [row.fallback] : [])),
];

const ROLE_VARIABLES: readonly string[] = [
  ...ROLES.flatMap((role) => Object.keys(ROLE_FIELDS).map((field) => roleVariable(role, field as keyof typeof ROLE_FIELDS))),
  ...Object.values(ROLE_FIELDS).flatMap((row) => ('fallback' in row ? [row.fallback] : [])),
  ...ROLES.flatMap((role) => limitVariables(role)),
].filter((name) => !SECRET_VARIABLES.includes(name));

/** The variables a run config holds: one per row of the settings and judge tables, and every role's but its key. */
export const FROZEN_VARIABLES: readonly string[] = [...([...Object.values(SETTINGS_TABLE), ...Object.values(JUDGE_TABLE)] as SettingRow[]).map((r) => r.env), ...ROLE_VARIABLES];

/** The frozen part of an environment (the config file's values already filled in): blank counts as unset, as the readers take it. */
export function frozenVariables(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(FROZEN_VARIABLES.flatMap((name) => (env[name]?.trim() ? [[name, env[name]!]] : [])));
}

/**
 * Writes the run config under `<runDir>/run-configs/`, named by its digest: runs with the same settings share
 * one file, and a run never overwrites the file another run's workers are reading.
 */
export function writeRunConfig(runDir: string, config: RunConfig): string {
  const text = `${JSON.stringify(RunConfigSchema.parse(config), null, 2)}\n`;
  const file = path.join(runDir, 'run-configs', `${createHash('sha256').update(text).digest('hex').slice(0, 16)}.json`);
  mkdirSync(path.dirname(file), { recursive: true });
  writeAtomicSync(file, text);
  return file;
}

export class RunConfigError extends Error {
  override name = 'RunConfigError';
}

/** A worker's run config: the file the runner named, checked against the schema. */
export function readRunConfig(file: string | undefined): RunConfig {
  if (!file) throw new RunConfigError(`no run config: a Playwright worker reads the one its runner wrote and names in ${RUN_CONFIG_VARIABLE}`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new RunConfigError(`${RUN_CONFIG_VARIABLE}=${file}: cannot read the run config: ${(e as Error).message}`);
  }
  const parsed = RunConfigSchema.safeParse(json);
  if (!parsed.success) throw new RunConfigError(`${file}: not a run config: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}
