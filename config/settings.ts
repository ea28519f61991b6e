import path from 'node:path';
import { z } from 'zod';
import type { UserKind } from '../protocol/enums.js';
import { findChromium, type ChromiumSource } from './chromium.js';
import { declareEnv } from './env-registry.js';
import { PROFILES } from './profiles.js';
import type { RunConfig } from './run-config.js';
import { readVariables, rowsSchema, type EnvRecord } from './env-read.js';
import { SETTINGS_TABLE } from './settings-table.js';

export { CALL_CACHE_MODES, type CallCacheMode } from './settings-table.js';

/**
 * The run's settings variables, read into a typed object; config/env.ts puts them beside the judge's and the
 * roles' in one `Env`, and nothing outside config/ reads process.env, so a test can build a Settings by
 * hand and a typo in a variable's value fails at start with the variable's name.
 * Each variable is one row of config/settings-table.ts.
 */

/** Set by the run itself (fixtures/global-setup.ts) for its workers, never by a user. */
export const RUN_ID_VARIABLE = declareEnv('IWB_RUN_ID', 'set by a Playwright run for its workers: a case\'s episode is attempted once per run');
/** Set by the run itself for its workers: the one browser server they all connect to (a failed slot restarts a worker, not a browser). */
export const BROWSER_WS_VARIABLE = declareEnv('IWB_BROWSER_WS', 'set by a Playwright run for its workers: the endpoint of the browser server they share');
/** Set by the runner for its workers: where it left each persona's cases, so a new worker declares its tests without parsing the dataset again (fixtures/cases.ts). */
export const CASES_SNAPSHOT_VARIABLE = declareEnv('IWB_CASES_SNAPSHOT', 'set by a Playwright run for its workers: the cases the runner declared, per persona');
/** Setting key -> its variable. */
export const SETTINGS_VARIABLES = Object.fromEntries(Object.entries(SETTINGS_TABLE).map(([key, row]) => [key, row.env])) as Readonly<Record<keyof typeof SETTINGS_TABLE, string>>;

/** Generated from the table: one field per row. */
export const SettingsSchema = rowsSchema(SETTINGS_TABLE);
export type Settings = Omit<z.infer<typeof SettingsSchema>, 'chromium'> & {
  /** The resolved browser (config/chromium.ts); undefined when none is installed. */
  chromium: string | undefined;
  chromiumSource: ChromiumSource | undefined;
};

/** The runner's reading: the environment (the config file's values filled in), the browser looked for. */
export function readSettings(env: EnvRecord, cwd = process.cwd()): Settings {
  const s = readVariables(SETTINGS_TABLE, env);
  return resolved(s, cwd, findChromium(s.chromium));
}

/** A worker's reading: the runner's frozen run config (config/run-config.ts), never the worker's environment. */
export function settingsOf(run: RunConfig): Settings {
  return resolved(readVariables(SETTINGS_TABLE, run.variables), run.cwd, run.chromium ?? undefined);
}

function resolved(s: z.infer<typeof SettingsSchema>, cwd: string, browser: { path: string; source: ChromiumSource } | undefined): Settings {
  return {
    ...s,
    runDir: path.resolve(cwd, s.runDir),
    reportDir: path.resolve(cwd, s.reportDir),
    allureResults: path.resolve(cwd, s.allureResults),
    allureReport: path.resolve(cwd, s.allureReport),
    chromium: browser?.path,
    chromiumSource: browser?.source,
  };
}

/** Which simulated user a run uses: IWB_USER, else the profile's default user. */
export function userKind(s: Pick<Settings, 'user'> & Partial<Pick<Settings, 'profile'>>): UserKind {
  return s.user ?? PROFILES[s.profile ?? 'iwb'].defaultUser;
}

/** Where derived degradation records are cached when no file is given or kept beside the dataset. */
export function degradationCacheDir(s: Pick<Settings, 'runDir'>): string {
  return path.join(s.runDir, 'degradation');
}

/**
 * Chromium flags this machine needs: no sandbox as root, and no calls home on a closed network.
 * A page's JavaScript heap is capped: an agent's site that allocates without bound then crashes its own
 * renderer within a second, instead of growing to V8's 4 GB default beside other pages judged at once
 * (the machine's memory, and on a small CI machine the whole browser, went with it).
 */
export const RENDERER_HEAP_MB = 512;
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-gpu', '--no-first-run', '--disable-sync', `--js-flags=--max-old-space-size=${RENDERER_HEAP_MB}`];

/** Model calls are recorded beside the run folder (default .iwb/llm-cache), so runs that use other run folders share them. */
export function llmCacheDir(settings: Pick<Settings, 'runDir' | 'llmCacheDir'>): string {
  return path.resolve(settings.llmCacheDir ?? path.join(path.dirname(path.resolve(settings.runDir)), 'llm-cache'));
}
