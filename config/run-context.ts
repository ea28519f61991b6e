import type { RunConfig } from './run-config.js';

/**
 * What the entry point of a run's process (playwright.config.ts, in the runner and in every worker) hands the
 * modules Playwright loads after it (fixtures, specs, global setup, the reporter): the frozen run config and the
 * process's environment, which carries the run's state (run id, browser, cases snapshot: written by the runner
 * as it goes) and the model roles' API keys (which stay out of the run folder). Nothing below reads
 * the environment itself.
 *
 * Kept on globalThis: Playwright loads the config and the test files through its own loaders, and a second copy
 * of this module must not see an empty slot.
 */
export interface RunContext {
  run: RunConfig;
  env: NodeJS.ProcessEnv;
}

const SLOT = Symbol.for('interactweb-bench.run-context');
type Holder = { [SLOT]?: RunContext };

export function installRunContext(context: RunContext): void {
  (globalThis as Holder)[SLOT] = context;
}

/** The run context, or undefined outside a run (`merge-reports` without a config, a unit test). */
export function maybeRunContext(): RunContext | undefined {
  return (globalThis as Holder)[SLOT];
}

export function runContext(): RunContext {
  const context = maybeRunContext();
  if (!context) throw new Error('no run context: this module runs inside a Playwright run, whose playwright.config.ts installs it');
  return context;
}
