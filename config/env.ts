import { readJudgeSettings, type JudgeSettings } from '../judge/settings.js';
import { readLimits, type RoleLimits } from '../llm/limits.js';
import { readRoles, type Role, type RoleConfigs } from '../llm/roles.js';
import { checkEnv } from './env-check.js';
import { rawProcessEnv } from './process-env.js';
import { readSettings, RUN_ID_VARIABLE, type Settings } from './settings.js';

/**
 * The one place the harness reads its environment: every variable, checked (no unknown IWB_* name) and
 * validated (each reader's zod schema names the variable whose value is wrong), into one typed object.
 * Modules below take an `Env` (or a part of it) as an argument and never look at process.env, so a test
 * builds one from a plain record with `readEnv({...})`.
 *
 * Adding a run or judge setting is one row of config/settings-table.ts (docs/settings.md); a role family is a
 * row of ROLE_FIELDS in llm/roles.ts. Another variable is declared with `declareEnv` where it is read; its
 * module is imported by config/env-check.ts (test/env-registry.test.ts fails until it is).
 */
export interface Env {
  settings: Settings;
  judge: JudgeSettings;
  roles: RoleConfigs;
  /** Per-role request limits (IWB_<ROLE>_CONCURRENCY, IWB_<ROLE>_RPM). */
  limits: Partial<Record<Role, RoleLimits>>;
  /** Set by the run for its workers (fixtures/global-setup.ts), never by a user. */
  runId: string | undefined;
  /** Where Playwright's HTML reporter writes, when the user moved it. */
  playwrightHtmlOutputDir: string | undefined;
}

export type EnvSource = Readonly<Record<string, string | undefined>>;

export function readEnv(env: EnvSource = rawProcessEnv(), cwd = process.cwd()): Env {
  checkEnv(env);
  const settings = readSettings(env, cwd);
  return {
    settings,
    judge: readJudgeSettings(env),
    roles: readRoles(env),
    limits: readLimits(env, settings.runDir),
    runId: env[RUN_ID_VARIABLE] || undefined,
    playwrightHtmlOutputDir: env.PLAYWRIGHT_HTML_OUTPUT_DIR || undefined,
  };
}

let current: Env | undefined;

/** The process's environment, read once; entry points (fixtures, reporter, CLI) call this. */
export function processEnv(): Env {
  current ??= readEnv(rawProcessEnv(), process.cwd());
  return current;
}
