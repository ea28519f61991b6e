import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { declareEnv } from './env-registry.js';

/**
 * Where the third-party public releases are on this machine. Only the project's own tests and the bench
 * need them; a run names its dataset with IWB_DATASET. One setting, IWB_PUBLIC_DATA (the InteractWeb-Bench
 * release's folder, holding all.jsonl and test_mini.jsonl); the WebGen-Bench file is looked for beside it,
 * in `../webgen-bench/`, the layout both this project's CI and `iwb dataset fetch` use.
 */
export const PUBLIC_DATA_VARIABLE = declareEnv(
  'IWB_PUBLIC_DATA',
  "the InteractWeb-Bench public release's folder (all.jsonl, test_mini.jsonl) the project's tests and bench read; WebGen-Bench is looked for beside it",
);

export const RELEASE_NAMES = ['interactweb-bench', 'webgen-bench'] as const;
export type ReleaseName = (typeof RELEASE_NAMES)[number];

const PROJECT_ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** Where `iwb dataset fetch` keeps a release: the user's cache, never the project (the data is not ours to commit). */
export function releaseCacheDir(name: ReleaseName, env: Readonly<Record<string, string | undefined>>): string {
  const base = env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'iwb', 'datasets', name);
}

/**
 * The folder of a release, in this order: IWB_PUBLIC_DATA (the InteractWeb-Bench folder, WebGen-Bench beside
 * it); `../shared/data/<name>` beside the project, where this project's CI keeps them; the fetch cache.
 * Undefined when none holds it, with the places looked at in `looked`.
 */
export function findRelease(name: ReleaseName, env: Readonly<Record<string, string | undefined>>): { dir?: string; looked: string[] } {
  const set = env[PUBLIC_DATA_VARIABLE];
  const candidates = set
    ? [name === 'interactweb-bench' ? path.resolve(set) : path.resolve(set, '..', name)]
    : [path.resolve(PROJECT_ROOT, '..', 'shared', 'data', name), releaseCacheDir(name, env)];
  const dir = candidates.find((d) => existsSync(d));
  return { ...(dir ? { dir } : {}), looked: candidates };
}

/**
 * A file of a release for a test: its path, or a skip message naming the setting and the fetch command,
 * for node:test's `skip` (a fresh clone without the data passes, and says how many tests it skipped and why).
 */
export function releaseFile(name: ReleaseName, file: string, env: Readonly<Record<string, string | undefined>>): { path: string; skip: false } | { path: string; skip: string } {
  const { dir, looked } = findRelease(name, env);
  const full = dir ? path.join(dir, file) : path.join(looked[0]!, file);
  if (dir && existsSync(full)) return { path: full, skip: false };
  return { path: full, skip: `needs the ${name} public release (${file}): set ${PUBLIC_DATA_VARIABLE} or run \`npx iwb dataset fetch ${name}\`; looked in ${looked.join(', ')}` };
}
