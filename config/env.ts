import { readJudgeSettings, type JudgeSettings } from './judge-settings.js';
import { readLimits, type RoleLimits } from './role-limits.js';
import { readRoles, type Role, type RoleConfigs } from './roles.js';
import { checkEnv } from './env-check.js';
import { SECRET_VARIABLES, type RunConfig } from './run-config.js';
import { runContext } from './run-context.js';
import { readSettings, RUN_ID_VARIABLE, settingsOf, type Settings } from './settings.js';

/**
 * The one place the harness reads its environment: every variable, checked (no unknown IWB_* name) and
 * validated (each reader's zod schema names the variable whose value is wrong), into one typed object.
 * Modules below take an `Env` (or a part of it) as an argument and never look at process.env, so a test
 * builds one from a plain record with `readEnv({...})`.
 *
 * Adding a run or judge setting is one row of config/settings-table.ts (docs/settings.md); a role family is a
 * row of ROLE_FIELDS in config/roles.ts. Another variable is declared with `declareEnv` where it is read; its
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

/** A command's reading: every variable of the environment it was given. */
export function readEnv(env: EnvSource, cwd = process.cwd()): Env {
  checkEnv(env);
  const settings = readSettings(env, cwd);
  return withRoles(settings, readJudgeSettings(env), env, env);
}

/**
 * A run's reading, in the runner and its workers alike: the settings, the judge's and the model roles from the
 * frozen run config (config/run-config.ts), whatever this process's environment says of them; from the
 * environment only the roles' API keys (never written to the run folder) and the run's state (its id).
 */
export function runEnv(run: RunConfig, env: EnvSource): Env {
  return withRoles(settingsOf(run), readJudgeSettings(run.variables), frozenRoleSource(run, env), env);
}

/** What the role readers read in a run: the frozen variables, and the API keys from the environment. */
export function frozenRoleSource(run: RunConfig, env: EnvSource): EnvSource {
  return { ...Object.fromEntries(SECRET_VARIABLES.map((name) => [name, env[name]])), ...run.variables };
}

function withRoles(settings: Settings, judge: JudgeSettings, roleSource: EnvSource, env: EnvSource): Env {
  return {
    settings,
    judge,
    roles: readRoles(roleSource),
    limits: readLimits(roleSource, settings.runDir),
    runId: env[RUN_ID_VARIABLE] || undefined,
    playwrightHtmlOutputDir: env.PLAYWRIGHT_HTML_OUTPUT_DIR || undefined,
  };
}

let current: Env | undefined;

/** This run process's Env, read once from the run context playwright.config.ts installed (fixtures call this). */
export function currentRunEnv(): Env {
  if (!current) {
    const { run, env } = runContext();
    current = runEnv(run, env);
  }
  return current;
}
