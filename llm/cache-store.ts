import { promises as fs } from 'node:fs';
import path from 'node:path';
import { declareEnv } from '../config/env-registry.js';
import { RUN_ID_VARIABLE, SETTINGS_VARIABLES } from '../config/settings.js';
import { writeAtomic } from '../protocol/atomic-write.js';
import { LLM_CACHE_MODES, openEntry, sealEntry, type CacheEntry, type LlmCacheMode } from './cache.js';

/**
 * The disk half of the model-call cache: one file per request key, `<dir>/<key[0..2]>/<key>.json`, written
 * atomically; hits and misses appended to `<dir>/stats.jsonl` (one short line per lookup, appends of a
 * few bytes do not interleave across workers) for `iwb cache stats`.
 */
export const LLM_CACHE_VARIABLE = declareEnv('IWB_LLM_CACHE', 'model-call cache: record (default: read, call on a miss, store), replay (a miss is errored), off');
export const LLM_CACHE_DIR_VARIABLE = declareEnv('IWB_LLM_CACHE_DIR', 'where recorded model calls live (default: llm-cache beside the run folder, shared by runs)');

export interface LlmCacheConfig {
  mode: LlmCacheMode;
  dir: string;
  /** Where a corrupt entry is reported; the default is stderr. */
  warn?: (message: string) => void;
}

export const STATS_FILE = 'stats.jsonl';

/** Reads IWB_LLM_CACHE and IWB_LLM_CACHE_DIR; the run folder defaults as config/settings.ts does. */
export function readLlmCache(env: NodeJS.ProcessEnv = process.env, runDir = env[SETTINGS_VARIABLES.runDir] ?? '.iwb/runs'): LlmCacheConfig {
  const raw = (env[LLM_CACHE_VARIABLE] ?? '').trim() || 'record';
  if (!(LLM_CACHE_MODES as readonly string[]).includes(raw)) {
    throw new Error(`environment variable ${LLM_CACHE_VARIABLE}: must be one of ${LLM_CACHE_MODES.join(', ')} (got ${JSON.stringify(raw)})`);
  }
  const dir = (env[LLM_CACHE_DIR_VARIABLE] ?? '').trim() || path.join(path.dirname(path.resolve(runDir)), 'llm-cache');
  return { mode: raw as LlmCacheMode, dir: path.resolve(dir) };
}

export function entryPath(dir: string, key: string): string {
  return path.join(dir, key.slice(0, 2), `${key}.json`);
}

export type Lookup = { hit: true; entry: CacheEntry } | { hit: false; corrupt?: string };

export async function lookup(config: LlmCacheConfig, key: string, role: string): Promise<Lookup> {
  const file = entryPath(config.dir, key);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    await count(config, role, false);
    return { hit: false };
  }
  const opened = openEntry(text, key);
  if (!opened.ok) {
    const message = `llm cache: corrupt entry ${file}: ${opened.why}; treated as a miss`;
    (config.warn ?? ((m: string) => process.stderr.write(`${m}\n`)))(message);
    await count(config, role, false);
    return { hit: false, corrupt: message };
  }
  await count(config, role, true);
  return { hit: true, entry: opened.entry };
}

export async function store(config: LlmCacheConfig, entry: Omit<CacheEntry, 'checksum'>): Promise<void> {
  const file = entryPath(config.dir, entry.key);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await writeAtomic(file, JSON.stringify(sealEntry(entry)));
}

async function count(config: LlmCacheConfig, role: string, hit: boolean): Promise<void> {
  await fs.mkdir(config.dir, { recursive: true });
  const run = process.env[RUN_ID_VARIABLE] ?? `pid-${process.pid}`;
  await fs.appendFile(path.join(config.dir, STATS_FILE), `${JSON.stringify({ t: new Date().toISOString(), run, role, hit })}\n`);
}
