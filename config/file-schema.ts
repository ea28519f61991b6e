import { z } from 'zod';
import { ROLE_FIELDS, roleVariable, ROLES, type Role } from './roles.js';
import { FILE_BLOCKS, SETTINGS_TABLE, type SettingRow } from './settings-table.js';

/**
 * iwb.config.ts / iwb.config.json: one file to keep a configuration in, share, and commit beside a result.
 * Every key stands for one environment variable (FILE_VARIABLES), so the file and the environment are one
 * configuration with two sources: the environment wins, and each reader validates its values as it always
 * did. Keys never go in the file: a role names the variable that holds its key (`apiKeyEnv`).
 * Everything here is generated from the settings table (config/settings-table.ts) and the role families
 * (config/roles.ts): a setting gets a file key by its row's `file` entry.
 */
type FileRowOf<R> = R extends { file: { key: infer K extends string } } ? { key: K; schema: R extends { file: { schema: infer S extends z.ZodType } } ? S : z.ZodString } : never;
type FileShape<T extends Record<string, SettingRow>> = { [R in keyof T as FileRowOf<T[R]>['key']]: z.ZodOptional<FileRowOf<T[R]>['schema']> };

/** The file block of a table: its rows with a file key, at that key, each optional, nothing else accepted. */
function fileBlock<T extends Record<string, SettingRow>>(table: T): z.ZodObject<FileShape<T>, z.core.$strict> {
  const shape: Record<string, z.ZodType> = {};
  for (const row of Object.values(table)) if (row.file) shape[row.file.key] = (row.file.schema ?? z.string().min(1)).optional();
  return z.object(shape).strict() as z.ZodObject<FileShape<T>, z.core.$strict>;
}

type RoleFileField = { [F in keyof typeof ROLE_FIELDS]: (typeof ROLE_FIELDS)[F] extends { file: z.ZodType } ? F : never }[keyof typeof ROLE_FIELDS];
const roleFileShape = Object.fromEntries(
  Object.entries(ROLE_FIELDS).flatMap(([field, row]) => ('file' in row ? [[field, row.file.optional()]] : [])),
) as { [F in RoleFileField]: z.ZodOptional<(typeof ROLE_FIELDS)[F]['file']> };
const RoleBlockSchema = z
  .object({
    ...roleFileShape,
    model: ROLE_FIELDS.model.file,
    apiKeyEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be the name of an environment variable, e.g. OPENAI_API_KEY').optional(),
  })
  .strict();
export type RoleBlock = z.infer<typeof RoleBlockSchema>;

const BLOCKS = { judge: fileBlock(FILE_BLOCKS.judge) };

export const IwbConfigSchema = fileBlock(SETTINGS_TABLE)
  .extend({
    ...Object.fromEntries(Object.entries(BLOCKS).map(([name, block]) => [name, block.optional()])) as { [B in keyof typeof BLOCKS]: z.ZodOptional<(typeof BLOCKS)[B]> },
    roles: z.object(Object.fromEntries(ROLES.map((r) => [r, RoleBlockSchema.optional()])) as Record<Role, z.ZodOptional<typeof RoleBlockSchema>>).strict().optional(),
  })
  .strict();

/** The type a starter file's `satisfies` checks against. */
export type IwbConfig = z.input<typeof IwbConfigSchema>;

/** File key (dotted path) -> the environment variable it stands for. */
export const FILE_VARIABLES: Record<string, string> = {};
for (const [prefix, table] of [['', SETTINGS_TABLE], ...Object.entries(FILE_BLOCKS).map(([name, t]) => [`${name}.`, t] as const)] as [string, Record<string, SettingRow>][]) {
  for (const row of Object.values(table)) if (row.file) FILE_VARIABLES[`${prefix}${row.file.key}`] = row.env;
}
for (const role of ROLES) {
  for (const field of Object.keys(roleFileShape) as RoleFileField[]) FILE_VARIABLES[`roles.${role}.${field}`] = roleVariable(role, field);
}

/** A zod issue as "field roles.agent.temperature: ..." with a hint for the usual mistakes. */
export function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.join('.') || '(top level)';
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys;
    const secret = keys.find((k) => /key|token|secret/i.test(k) && k !== 'apiKeyEnv');
    if (secret) return `field ${where ? `${where}.` : ''}${secret}: a key never goes in the config file; put it in an environment variable and name that variable in apiKeyEnv`;
    return `${where}: unknown key${keys.length > 1 ? 's' : ''} ${keys.join(', ')} (known: ${knownKeys(issue.path).join(', ')})`;
  }
  return `field ${where}: ${issue.message}`;
}

function knownKeys(at: readonly PropertyKey[]): string[] {
  if (at.length === 0) return Object.keys(IwbConfigSchema.shape);
  if (typeof at[0] === 'string' && at[0] in BLOCKS) return Object.keys(BLOCKS[at[0] as keyof typeof BLOCKS].shape);
  if (at[0] === 'roles' && at.length === 1) return [...ROLES];
  return Object.keys(RoleBlockSchema.shape);
}
