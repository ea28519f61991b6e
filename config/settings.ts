import path from 'node:path';
import { z } from 'zod';
import { USER_KINDS, type UserKind } from '../personas/types.js';
import { findChromium, type ChromiumSource } from './chromium.js';
import { declareEnv } from './env-registry.js';
import { PROFILE_NAMES, PROFILES } from './profiles.js';
import { rawProcessEnv } from './process-env.js';
import { ErroredShareSchema } from '../stats/lost-input.js';

/**
 * The run's settings variables, read into a typed object; config/env.ts puts them beside the judge's and the
 * roles' in one `Env`, and nothing outside config/ reads process.env, so a test can build a Settings by
 * hand and a typo in a variable's value fails at start with the variable's name.
 * Each variable is declared here, where it is read (config/env-registry.ts).
 */
const VARIABLES = {
  dataset: declareEnv('IWB_DATASET', '`builtin` or a JSONL file in the public release format'),
  agent: declareEnv('IWB_AGENT', 'the agent adapter: reference, null, openai, openai:artifact, openai:paper, command:<cmd>'),
  runDir: declareEnv('IWB_RUN_DIR', 'where episodes are cached'),
  reportDir: declareEnv('IWB_REPORT_DIR', 'where report.json, report.md, summary.html and the case pages go'),
  chromium: declareEnv('IWB_CHROMIUM', 'the Chromium binary (else Debian headless shell, Debian Chromium, Playwright\'s own)'),
  chromiumSandbox: declareEnv('IWB_CHROMIUM_SANDBOX', '`auto` (Chromium keeps its own sandbox, as an unprivileged uid under root, where the kernel allows) or `off` (--no-sandbox)'),
  stepCapOverride: declareEnv('IWB_STEP_CAP', 'overrides the step cap of every case'),
  prices: declareEnv('IWB_PRICES', 'price table: inline JSON or a JSON file'),
  agentStepTimeoutMs: declareEnv('IWB_AGENT_STEP_TIMEOUT_MS', 'how long a command: agent may take to answer one step'),
  agentName: declareEnv('IWB_AGENT_NAME', 'how reports name a command: agent (letters, digits, . _ - @)'),
  workers: declareEnv('IWB_WORKERS', 'Playwright workers (a positive integer)'),
  allure: declareEnv('IWB_ALLURE', '1 adds allure-playwright to the reporters'),
  allureResults: declareEnv('IWB_ALLURE_RESULTS', 'where allure-playwright writes'),
  allureReport: declareEnv('IWB_ALLURE_REPORT', 'where npm run report:allure writes (read by allurerc.mjs)'),
  agentEnv: declareEnv('IWB_AGENT_ENV', 'names of variables a command: agent gets (its own model key), comma-separated'),
  agentNetwork: declareEnv('IWB_AGENT_NETWORK', 'host:port pairs a command: agent may reach besides its role\'s endpoint, or `host` for the host\'s network'),
  unsafeNoSandbox: declareEnv('IWB_UNSAFE_NO_SANDBOX', '1 runs untrusted processes unconfined when no sandbox is available'),
  split: declareEnv('IWB_SPLIT', 'dev, holdout or all: which side of the seeded 80/20 task split runs'),
  episodeTimeoutMs: declareEnv('IWB_EPISODE_TIMEOUT', "an episode's whole budget (60m, 90s, 1h or ms), apart from Playwright's per-test timeout"),
  profile: declareEnv('IWB_PROFILE', 'iwb (default) or paper: the judge, verdict, crash and metric rules a run follows (config/profiles.ts)'),
  user: declareEnv('IWB_USER', 'the simulated user: contained (default) or paper (needs IWB_USER_MODEL)'),
  llmCache: declareEnv('IWB_LLM_CACHE', 'record (read the model call cache, call on a miss, store), replay (never call: a miss is errored) or off'),
  llmCacheDir: declareEnv('IWB_LLM_CACHE_DIR', 'where model calls are recorded; default llm-cache/ beside IWB_RUN_DIR, shared by runs'),
  fresh: declareEnv('IWB_FRESH', '1 runs every episode again instead of reusing those of earlier runs in IWB_RUN_DIR'),
  maxErrored: declareEnv('IWB_MAX_ERRORED', 'the share of errored slots (5%) a run, `iwb report` or `iwb compare` tolerates before it exits 1; none by default (stats/lost-input.ts)'),
  degradation: declareEnv('IWB_DEGRADATION', 'a degradation records file (iwb personas annotate --out) for a dataset that carries none'),
} as const;
/** IWB_LLM_CACHE (llm/call-cache.ts): record reads and fills the model call cache, replay only reads it, off ignores it. */
export const CALL_CACHE_MODES = ['record', 'replay', 'off'] as const;
export type CallCacheMode = (typeof CALL_CACHE_MODES)[number];

/** Set by the run itself (fixtures/global-setup.ts) for its workers, never by a user. */
export const RUN_ID_VARIABLE = declareEnv('IWB_RUN_ID', 'set by a Playwright run for its workers: a case\'s episode is attempted once per run');
/** Set by the run itself for its workers: the one browser server they all connect to (a failed slot restarts a worker, not a browser). */
export const BROWSER_WS_VARIABLE = declareEnv('IWB_BROWSER_WS', 'set by a Playwright run for its workers: the endpoint of the browser server they share');
/** Set by the runner for its workers: where it left each persona's cases, so a new worker declares its tests without parsing the dataset again (fixtures/cases.ts). */
export const CASES_SNAPSHOT_VARIABLE = declareEnv('IWB_CASES_SNAPSHOT', 'set by a Playwright run for its workers: the cases the runner declared, per persona');
export const SETTINGS_VARIABLES: Readonly<Record<keyof typeof VARIABLES, string>> = VARIABLES;

const flag = z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true');

/** "90m", "1h", "600s", "250ms" or bare milliseconds. */
const Duration = z
  .string()
  .regex(/^\d+(\.\d+)?\s*(ms|s|m|h)?$/, 'must be a duration such as 60m, 90s, 1h or milliseconds')
  .transform((v) => {
    const [, n, unit] = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/.exec(v)!;
    return Math.round(Number(n) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(unit ?? 'ms') as 'ms' | 's' | 'm' | 'h']);
  });

const SettingsSchema = z.object({
  dataset: z.string().default('builtin'),
  agent: z.string().default(''),
  runDir: z.string().default('.iwb/runs'),
  reportDir: z.string().default('iwb-report'),
  chromium: z.string().optional(),
  chromiumSandbox: z.enum(['auto', 'off']).default('auto'),
  stepCapOverride: z.coerce.number().int().positive().optional(),
  prices: z.string().optional(),
  agentStepTimeoutMs: z.coerce.number().int().positive().optional(),
  agentName: z.string().regex(/^[A-Za-z0-9_.@-]{1,64}$/, 'use 1-64 letters, digits, . _ - @').optional(),
  workers: z.coerce.number().int().positive().max(256).optional(),
  allure: flag.default(false),
  allureResults: z.string().default('allure-results'),
  allureReport: z.string().default('allure-report'),
  /** Names of variables a `command:` agent gets (its own model key); nothing else of the environment. */
  agentEnv: z.string().default(''),
  /** What a `command:` agent's network reaches besides its role's endpoint (sandbox/endpoints.ts). */
  agentNetwork: z.string().default(''),
  /** An episode's own budget, apart from Playwright's per-test timeout. */
  episodeTimeoutMs: Duration.default(60 * 60_000),
  /** Run untrusted processes unconfined when no sandbox is available (sandbox/detect.ts says what that exposes). */
  unsafeNoSandbox: z.enum(['0', '1']).default('0').transform((v) => v === '1'),
  split: z.enum(['dev', 'holdout', 'all']).default('all'),
  /** The rule set (config/profiles.ts). */
  profile: z.enum(PROFILE_NAMES).default('iwb'),
  /** Unset: the profile's default (contained unless a profile says otherwise). */
  user: z.enum(USER_KINDS).optional(),
  /** A degradation records file (iwb personas annotate --out) for a dataset that carries none. */
  degradation: z.string().optional(),
  /** Reuse no episode of an earlier run (this run's own are still shared by its slot tests). */
  fresh: flag.default(false),
  llmCache: z.enum(CALL_CACHE_MODES).default('record'),
  llmCacheDir: z.string().optional(),
  /** The share of errored inputs a figure may lose before the run or command exits 1 (stats/lost-input.ts). */
  maxErrored: ErroredShareSchema.optional(),
});
export type Settings = Omit<z.infer<typeof SettingsSchema>, 'chromium'> & {
  /** The resolved browser (config/chromium.ts); undefined when none is installed. */
  chromium: string | undefined;
  chromiumSource: ChromiumSource | undefined;
};

export function readSettings(env: Readonly<Record<string, string | undefined>> = rawProcessEnv(), cwd = process.cwd()): Settings {
  const raw: Record<string, string> = {};
  for (const [key, variable] of Object.entries(VARIABLES)) {
    const value = env[variable]?.trim();
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const parsed = SettingsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const variable = VARIABLES[issue.path[0] as keyof typeof VARIABLES];
    throw new Error(`environment variable ${variable}: ${issue.message} (got ${JSON.stringify(raw[issue.path[0] as string])})`);
  }
  const s = parsed.data;
  const browser = findChromium(s.chromium);
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

/** Chromium flags this machine needs: no sandbox as root, and no calls home on a closed network. */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-gpu', '--no-first-run', '--disable-sync'];

/** Model calls are recorded beside the run folder (default .iwb/llm-cache), so runs that use other run folders share them. */
export function llmCacheDir(settings: Pick<Settings, 'runDir' | 'llmCacheDir'>): string {
  return path.resolve(settings.llmCacheDir ?? path.join(path.dirname(path.resolve(settings.runDir)), 'llm-cache'));
}
