import { RUN_CONFIG_VARIABLE } from './run-config.js';
import { BROWSER_WS_VARIABLE, CASES_SNAPSHOT_VARIABLE, RUN_ID_VARIABLE } from './settings.js';

/**
 * What a run hands its own processes, never set by a user: the run's id, the shared browser's endpoint, the
 * runner's cases snapshot and its frozen run config (all set by the runner for its workers), whether this
 * process is a Playwright worker, and where Playwright's HTML reporter writes. Read here so the modules that
 * need it take a typed object instead of reading the environment themselves.
 */
export interface RunState {
  runId: string | undefined;
  browserWs: string | undefined;
  casesSnapshot: string | undefined;
  /** The run config file the runner wrote (config/run-config.ts): a worker's settings. */
  runConfig: string | undefined;
  /** A Playwright worker, not the runner that declares the tests first. */
  worker: boolean;
  playwrightHtmlOutputDir: string | undefined;
}

export function readRunState(env: Readonly<Record<string, string | undefined>>): RunState {
  return {
    runId: env[RUN_ID_VARIABLE] || undefined,
    browserWs: env[BROWSER_WS_VARIABLE] || undefined,
    casesSnapshot: env[CASES_SNAPSHOT_VARIABLE] || undefined,
    runConfig: env[RUN_CONFIG_VARIABLE] || undefined,
    worker: Boolean(env.TEST_WORKER_INDEX),
    playwrightHtmlOutputDir: env.PLAYWRIGHT_HTML_OUTPUT_DIR || undefined,
  };
}

/** The runner names its cases snapshot to the workers it starts (they inherit its environment); undefined withdraws it. */
export function publishCasesSnapshot(file: string | undefined, env: NodeJS.ProcessEnv): void {
  if (file) env[CASES_SNAPSHOT_VARIABLE] = file;
  else delete env[CASES_SNAPSHOT_VARIABLE];
}

/** The runner names its frozen run config to the workers it starts: the one variable they take their settings from. */
export function publishRunConfig(file: string, env: NodeJS.ProcessEnv): void {
  env[RUN_CONFIG_VARIABLE] = file;
}
