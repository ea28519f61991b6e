import { z } from 'zod';
import { USER_KINDS } from '../protocol/enums.js';
import { declareEnv } from './env-registry.js';
import type { VariableRow } from './env-read.js';
import { JUDGE_MODES, PROFILE_NAMES, PROFILES } from './profiles.js';
import { ErroredShareSchema } from '../stats/lost-input.js';

/**
 * The one settings table: a row per setting is its whole declaration. SettingsSchema, the config file's keys
 * and their types, the file-key -> variable map, the starter file's entries, the `--vars` list and the docs
 * table are all generated from these rows (config/settings.ts, config/file-schema.ts, cli/settings-docs.ts),
 * so adding a setting is adding a row here (docs/settings.md). test/settings-table.test.ts fails on drift.
 */

/** Who needs a setting: only the runner process, its test workers too, or the reporter (also at merge-reports time). */
export const SCOPES = ['runner', 'worker', 'report'] as const;
export type Scope = (typeof SCOPES)[number];

export interface SettingRow extends VariableRow {
  /** What it means, shown by `iwb config --vars`, the starter file and the docs table. */
  doc: string;
  /** The default as the docs table says it. */
  default: string;
  scope: Scope;
  /** Its key in iwb.config.ts / .json (inside its block for a block's table), the file's type (a non-empty string unless said), and the starter's example. */
  file?: { key: string; schema?: z.ZodType; example: string; active?: boolean };
}

/** IWB_LLM_CACHE (llm/call-cache.ts): record reads and fills the model call cache, replay only reads it, off ignores it. */
export const CALL_CACHE_MODES = ['record', 'replay', 'off'] as const;
export type CallCacheMode = (typeof CALL_CACHE_MODES)[number];
export { JUDGE_MODES } from './profiles.js';

const flag = z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true');
const positiveInt = z.coerce.number().int().positive();
const filePositiveInt = z.number().int().positive();

/** "90m", "1h", "600s", "250ms" or bare milliseconds. */
const Duration = z
  .string()
  .regex(/^\d+(\.\d+)?\s*(ms|s|m|h)?$/, 'must be a duration such as 60m, 90s, 1h or milliseconds')
  .transform((v) => {
    const [, n, unit] = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/.exec(v)!;
    return Math.round(Number(n) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(unit ?? 'ms') as 'ms' | 's' | 'm' | 'h']);
  });
const FilePrices = z.union([z.string().min(1), z.record(z.string(), z.object({ promptPerMTok: z.number(), completionPerMTok: z.number() }))]);

/** The run's settings (config/settings.ts reads them into `Settings`). */
export const SETTINGS_TABLE = {
  dataset: { env: 'IWB_DATASET', schema: z.string().default('builtin'), doc: '`builtin` or a JSONL file in the public release format', default: '`builtin`', scope: 'report', file: { key: 'dataset', example: "'builtin'", active: true } },
  agent: { env: 'IWB_AGENT', schema: z.string().default(''), doc: 'the agent adapter: reference, null, openai, openai:artifact, openai:paper, command:<cmd>', default: '`reference` (the run says so)', scope: 'worker', file: { key: 'agent', example: "'reference'", active: true } },
  runDir: { env: 'IWB_RUN_DIR', schema: z.string().default('.iwb/runs'), doc: 'where episodes are cached', default: '`.iwb/runs`', scope: 'worker', file: { key: 'runDir', example: "'.iwb/runs'" } },
  reportDir: { env: 'IWB_REPORT_DIR', schema: z.string().default('iwb-report'), doc: 'where report.json, report.md, summary.html and the case pages go', default: '`iwb-report`', scope: 'report', file: { key: 'reportDir', example: "'iwb-report'" } },
  chromium: { env: 'IWB_CHROMIUM', schema: z.string().optional(), doc: "the Chromium binary (else Debian headless shell, Debian Chromium, Playwright's own)", default: "Debian's headless shell, Debian's Chromium, then Playwright's own", scope: 'runner', file: { key: 'chromium', example: "'/path/to/chrome'" } },
  chromiumSandbox: { env: 'IWB_CHROMIUM_SANDBOX', schema: z.enum(['auto', 'off']).default('auto'), doc: '`auto` (Chromium keeps its own sandbox, as an unprivileged uid under root, where the kernel allows) or `off` (--no-sandbox)', default: '`auto`', scope: 'report' },
  stepCapOverride: { env: 'IWB_STEP_CAP', schema: positiveInt.optional(), doc: 'overrides the step cap of every case', default: '15 / 20 / 25 by difficulty', scope: 'worker', file: { key: 'stepCap', schema: filePositiveInt, example: '20' } },
  prices: { env: 'IWB_PRICES', schema: z.string().optional(), doc: 'price table: inline JSON or a JSON file', default: 'unset: cost unknown', scope: 'report', file: { key: 'prices', schema: FilePrices, example: "{ 'gpt-4o': { promptPerMTok: 2.5, completionPerMTok: 10 } }" } },
  agentStepTimeoutMs: { env: 'IWB_AGENT_STEP_TIMEOUT_MS', schema: positiveInt.optional(), doc: 'how long a command: agent may take to answer one step', default: '300000', scope: 'worker', file: { key: 'agentStepTimeoutMs', schema: filePositiveInt, example: '300000' } },
  agentName: { env: 'IWB_AGENT_NAME', schema: z.string().regex(/^[A-Za-z0-9_.@-]{1,64}$/, 'use 1-64 letters, digits, . _ - @').optional(), doc: 'how reports name a command: agent (letters, digits, . _ - @)', default: '`command`', scope: 'worker', file: { key: 'agentName', example: "'my-agent'" } },
  casesAhead: { env: 'IWB_CASES_AHEAD', schema: z.coerce.number().int().min(0).max(256).optional(), doc: "cases the runner runs and judges at once, ahead of their slot tests, which then read the verdicts (0: each case in its first slot test); needs fixtures/cases-ahead.ts among the reporters", default: '4 per worker when an episode or the judge calls a model, else 0', scope: 'runner', file: { key: 'casesAhead', schema: z.number().int().min(0).max(256), example: '8' } },
  workers: { env: 'IWB_WORKERS', schema: positiveInt.max(256).optional(), doc: 'Playwright workers (a positive integer)', default: 'one per core', scope: 'runner', file: { key: 'workers', schema: filePositiveInt, example: '2' } },
  allure: { env: 'IWB_ALLURE', schema: flag.default(false), doc: '1 adds allure-playwright to the reporters', default: 'off', scope: 'runner' },
  allureResults: { env: 'IWB_ALLURE_RESULTS', schema: z.string().default('allure-results'), doc: 'where allure-playwright writes', default: '`allure-results`', scope: 'runner' },
  allureReport: { env: 'IWB_ALLURE_REPORT', schema: z.string().default('allure-report'), doc: 'where npm run report:allure writes (read by allurerc.mjs)', default: '`allure-report`', scope: 'runner' },
  agentEnv: { env: 'IWB_AGENT_ENV', schema: z.string().default(''), doc: 'names of variables a command: agent gets (its own model key), comma-separated', default: 'none', scope: 'worker' },
  agentNetwork: { env: 'IWB_AGENT_NETWORK', schema: z.string().default(''), doc: "host:port pairs a command: agent may reach besides its role's endpoint, or `host` for the host's network", default: 'none', scope: 'report' },
  unsafeNoSandbox: { env: 'IWB_UNSAFE_NO_SANDBOX', schema: z.enum(['0', '1']).default('0').transform((v) => v === '1'), doc: '1 runs untrusted processes unconfined when no sandbox is available', default: '`0`: refuse', scope: 'worker' },
  split: { env: 'IWB_SPLIT', schema: z.enum(['dev', 'holdout', 'all']).default('all'), doc: 'dev, holdout or all: which side of the seeded 80/20 task split runs', default: '`all`', scope: 'runner' },
  episodeTimeoutMs: { env: 'IWB_EPISODE_TIMEOUT', schema: Duration.default(60 * 60_000), doc: "an episode's whole budget (60m, 90s, 1h or ms), apart from Playwright's per-test timeout", default: '`60m`', scope: 'worker' },
  profile: { env: 'IWB_PROFILE', schema: z.enum(PROFILE_NAMES).default('iwb'), doc: 'iwb (default) or paper: the judge, verdict, crash and metric rules a run follows (config/profiles.ts)', default: '`iwb`', scope: 'report', file: { key: 'profile', example: "'iwb'" } },
  /** Unset: the profile's default user (userKind in config/settings.ts). */
  user: { env: 'IWB_USER', schema: z.enum(USER_KINDS).optional(), doc: 'the simulated user: contained (default) or paper (needs IWB_USER_MODEL)', default: "the profile's (`contained`)", scope: 'worker' },
  llmCache: { env: 'IWB_LLM_CACHE', schema: z.enum(CALL_CACHE_MODES).default('record'), doc: 'record (read the model call cache, call on a miss, store), replay (never call: a miss is errored) or off', default: '`record`', scope: 'worker' },
  llmCacheDir: { env: 'IWB_LLM_CACHE_DIR', schema: z.string().optional(), doc: 'where model calls are recorded; default llm-cache/ beside IWB_RUN_DIR, shared by runs', default: '`llm-cache/` beside `IWB_RUN_DIR`', scope: 'worker' },
  fresh: { env: 'IWB_FRESH', schema: flag.default(false), doc: '1 runs every episode again instead of reusing those of earlier runs in IWB_RUN_DIR', default: '`0`', scope: 'worker' },
  maxErrored: { env: 'IWB_MAX_ERRORED', schema: ErroredShareSchema.optional(), doc: 'the share of errored slots (5%) a run, `iwb report` or `iwb compare` tolerates before it exits 1; none by default (stats/lost-input.ts)', default: 'none', scope: 'report' },
  degradation: { env: 'IWB_DEGRADATION', schema: z.string().optional(), doc: 'a degradation records file (iwb personas annotate --out) for a dataset that carries none', default: 'beside the dataset, else `<IWB_RUN_DIR>/degradation/`', scope: 'runner' },
} as const satisfies Record<string, SettingRow>;

/** The judge's settings (config/judge-settings.ts reads them); in the config file they sit in the `judge` block. */
export const JUDGE_TABLE = {
  /** Unset: the profile's session (config/judge-settings.ts resolves it, and refuses a mode the profile does not allow). */
  mode: { env: 'IWB_JUDGE_MODE', schema: z.enum(JUDGE_MODES).optional(), doc: `slot (one judge session per slot test) or case (one per case); the profile (IWB_PROFILE) sets the default and the modes it allows (${profileJudgeModes()}): another stops the run at start`, default: `the profile's (${Object.entries(PROFILES).map(([n, p]) => `${n}: \`${p.judgeSession}\``).join(', ')})`, scope: 'worker', file: { key: 'mode', schema: z.enum(JUDGE_MODES), example: "'slot'" } },
  slotsInFlight: { env: 'IWB_JUDGE_SLOTS_IN_FLIGHT', schema: z.coerce.number().int().min(1).max(32).optional(), doc: "a case's model-judged slots judged at once, each on its own page (hides the judge model's latency; probe slots, and every slot of a site with a server the agent wrote, go one at a time)", default: '4', scope: 'worker', file: { key: 'slotsInFlight', schema: z.number().int().min(1).max(32), example: '4' } },
  stepCap: { env: 'IWB_JUDGE_STEP_CAP', schema: z.coerce.number().int().min(1).max(50).optional(), doc: 'judge actions before a forced verdict', default: '10', scope: 'worker', file: { key: 'stepCap', schema: z.number().int().min(1).max(50), example: '10' } },
} as const satisfies Record<string, SettingRow>;

/** "iwb: slot or case, paper: case": which judge modes each profile allows, for the docs. */
function profileJudgeModes(): string {
  return Object.entries(PROFILES).map(([name, p]) => `${name}: ${p.judgeModes.join(' or ')}`).join(', ');
}

/** Config-file blocks besides the top level, each with its table (the `roles` block is config/roles.ts's family table). */
export const FILE_BLOCKS = { judge: JUDGE_TABLE } as const;

for (const row of [...Object.values(SETTINGS_TABLE), ...Object.values(JUDGE_TABLE)] as SettingRow[]) declareEnv(row.env, row.doc);
