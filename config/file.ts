import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { declareEnv, isKnownEnv } from './env-registry.js';
import { describeIssue, FILE_VARIABLES, IwbConfigSchema } from './file-schema.js';
import { ROLES } from './roles.js';

const CONFIG_VARIABLE = declareEnv('IWB_CONFIG', 'the config file (default: iwb.config.ts or iwb.config.json in the working folder)');
export const CONFIG_NAMES = ['iwb.config.ts', 'iwb.config.json'] as const;

export class ConfigFileError extends Error {
  override name = 'ConfigFileError';
}

/** Where a resolved value came from, for `iwb config`. */
export type Source = { from: 'env' } | { from: 'file'; key: string } | { from: 'file-key'; key: string; variable: string };

export interface ResolvedConfig {
  /** The config file read, if any. */
  file: string | undefined;
  /** The environment with the file's values filled in where the environment sets nothing. */
  env: Record<string, string | undefined>;
  sources: Map<string, Source>;
  /** File keys whose variable nothing in this build reads (kept out of env so they are not mistaken for typos). */
  unread: string[];
}

export function findConfigFile(env: Readonly<Record<string, string | undefined>>, cwd: string): string | undefined {
  const explicit = env[CONFIG_VARIABLE]?.trim();
  if (explicit) {
    const file = path.resolve(cwd, explicit);
    if (!existsSync(file)) throw new ConfigFileError(`environment variable ${CONFIG_VARIABLE}: no such file ${file}`);
    return file;
  }
  const found = CONFIG_NAMES.map((n) => path.join(cwd, n)).filter((f) => existsSync(f));
  if (found.length > 1) throw new ConfigFileError(`both ${found.join(' and ')} exist: keep one`);
  return found[0];
}

async function readConfigFile(file: string): Promise<unknown> {
  if (file.endsWith('.json')) {
    const text = await fs.readFile(file, 'utf8');
    try {
      return JSON.parse(text);
    } catch (e) {
      throw new ConfigFileError(`${file}: not valid JSON: ${(e as Error).message}`);
    }
  }
  try {
    const mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
    if (mod.default === undefined) throw new ConfigFileError(`${file}: export the configuration as the default export (export default { ... })`);
    return mod.default;
  } catch (e) {
    if (e instanceof ConfigFileError) throw e;
    throw new ConfigFileError(`${file}: cannot load: ${(e as Error).message.split('\n')[0]}`);
  }
}

/** Flattens the file into variable -> text, the form every reader takes. */
function flatten(config: unknown, file: string, env: Readonly<Record<string, string | undefined>>): Map<string, { value: string; source: Source }> {
  const parsed = IwbConfigSchema.safeParse(config);
  if (!parsed.success) throw new ConfigFileError(`${file}: ${parsed.error.issues.map(describeIssue).join('; ')}`);
  const out = new Map<string, { value: string; source: Source }>();
  const walk = (value: unknown, key: string): void => {
    if (value === undefined) return;
    const variable = FILE_VARIABLES[key];
    if (variable) out.set(variable, { value: typeof value === 'string' ? value : JSON.stringify(value), source: { from: 'file', key } });
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, key ? `${key}.${k}` : k);
  };
  walk(parsed.data, '');
  for (const role of ROLES) {
    const keyEnv = parsed.data.roles?.[role]?.apiKeyEnv;
    if (!keyEnv) continue;
    const key = `roles.${role}.apiKeyEnv`;
    const secret = env[keyEnv];
    if (secret === undefined || secret === '') throw new ConfigFileError(`${file}: field ${key} names ${keyEnv}, which is not set in the environment`);
    out.set(`IWB_${role.toUpperCase()}_API_KEY`, { value: secret, source: { from: 'file-key', key, variable: keyEnv } });
  }
  return out;
}

/** The environment and the config file as one configuration; the environment wins. */
export async function resolveConfig(env: Readonly<Record<string, string | undefined>>, cwd = process.cwd()): Promise<ResolvedConfig> {
  const file = findConfigFile(env, cwd);
  const merged: Record<string, string | undefined> = { ...env };
  const sources = new Map<string, Source>();
  const unread: string[] = [];
  for (const [k, v] of Object.entries(env)) if (k.startsWith('IWB_') && v !== undefined && v !== '') sources.set(k, { from: 'env' });
  if (file) {
    for (const [variable, { value, source }] of flatten(await readConfigFile(file), file, env)) {
      if (!isKnownEnv(variable)) {
        unread.push(source.from === 'env' ? variable : `${source.key} (${variable})`);
        continue;
      }
      if (merged[variable] !== undefined && merged[variable] !== '') continue;
      merged[variable] = value;
      sources.set(variable, source);
    }
  }
  return { file, env: merged, sources, unread };
}

/**
 * For entry points (playwright.config.ts, the CLI): the file's values go into this process's environment
 * where the environment sets nothing, so Playwright's workers, which inherit it, see one configuration.
 */
export async function applyConfigFile(env: NodeJS.ProcessEnv, cwd = process.cwd()): Promise<ResolvedConfig> {
  const resolved = await resolveConfig(env, cwd);
  for (const [k, v] of Object.entries(resolved.env)) if (v !== undefined && (env[k] ?? '') === '') env[k] = v;
  return resolved;
}
