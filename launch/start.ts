import { ChromiumMissing, NO_CHROMIUM_HINT, describeChromium } from '../config/chromium.js';
import { checkEnv, EnvError } from '../config/env-check.js';
import { applyConfigFile, ConfigFileError, type ResolvedConfig } from '../config/file.js';
import { frozenVariables, RunConfigError, type RunConfig } from '../config/run-config.js';
import { readSettings, settingsOf, type Settings } from '../config/settings.js';
import { readJudgeSettings } from '../config/judge-settings.js';
import { loadPriceTable } from '../llm/cost.js';
import { readRoles } from '../config/roles.js';
import { frozenRoleSource } from '../config/env.js';
import { DEFAULT_AGENT } from '../agent/registry.js';
import { DatasetError } from '../slots/errors.js';
import { memoisedPartition } from '../slots/difficulty-memo.js';
import { loadDataset } from '../slots/load.js';
import { AgentStartError, checkAgentStarts } from '../agent/start-check.js';
import { userModelMissing } from '../personas/user.js';
import { sandboxConfig } from '../sandbox/config.js';
import { configureSandbox, getSandbox } from '../sandbox/sandbox.js';
import { userKind } from '../config/settings.js';

/** A mistake the user made (a variable, the config file, a missing browser): one message, no stack trace. */
export class StartError extends Error {
  override name = 'StartError';
}

export interface StartedRun {
  settings: Settings;
  config: ResolvedConfig;
  /** The settings as checked, frozen for the run's workers (config/run-config.ts); `settings` is read from it. */
  run: RunConfig;
  /** What the run announces before the first test: the agent (and whether it was defaulted), the browser. */
  notes: string[];
}

/**
 * Everything a run checks before any test: no unknown IWB_* variable, the config file, every variable's
 * value (settings, roles, judge), and a browser. Reading all of them here, in the runner, turns a bad
 * value into one message at start instead of one error per test in every worker.
 */
export async function startRun(env: NodeJS.ProcessEnv, cwd = process.cwd()): Promise<StartedRun> {
  try {
    checkEnv(env);
    const config = await applyConfigFile(env, cwd);
    const read = readSettings(env, cwd);
    const run: RunConfig = { schemaVersion: 1, cwd, variables: frozenVariables(env), chromium: read.chromium ? { path: read.chromium, source: read.chromiumSource! } : null };
    // The runner reads its settings as its workers will: from the frozen config, so the two cannot differ.
    const settings = settingsOf(run);
    const roles = readRoles(frozenRoleSource(run, env));
    readJudgeSettings(run.variables);
    try {
      loadPriceTable(settings.prices);
    } catch (e) {
      throw new StartError((e as Error).message);
    }
    if (!settings.chromium) throw new StartError(NO_CHROMIUM_HINT);
    if (settings.agentName && !settings.agent.trim().startsWith('command:')) {
      throw new StartError(`environment variable IWB_AGENT_NAME names a command: agent, but IWB_AGENT is ${JSON.stringify(settings.agent || 'reference (the default)')}; other agents are named by their adapter and model`);
    }
    if (userKind(settings) === 'paper' && !roles.user) {
      throw new StartError(`${settings.user ? 'IWB_USER=paper' : `IWB_PROFILE=${settings.profile} (whose simulated user is the paper's)`}: ${userModelMissing()}`);
    }
    // Only the runner calls this (playwright.config.ts): workers read their settings and trust its checks.
    const cases = (await loadDataset(settings.dataset, cwd, memoisedPartition())).cases;
    const slots = cases.flatMap((c) => c.slots);
    const unprobed = slots.filter((s) => !s.probe).length;
    // Without a judge, a slot with no probe is skipped: a run of such a dataset would spend the agent's tokens for nothing.
    if (!roles.judge && slots.length > 0 && unprobed === slots.length) {
      throw new StartError(
        `dataset ${settings.dataset} has no probes, so every slot needs a judge model and none is set: ` +
          'set IWB_JUDGE_MODEL (and IWB_JUDGE_BASE_URL / IWB_JUDGE_API_KEY, or roles.judge in iwb.config.ts) before running it',
      );
    }
    // After the dataset's own checks: the agent is started last, once everything it depends on is known good.
    const agentNotes: string[] = [];
    configureSandbox(sandboxConfig(settings, cwd));
    agentNotes.push(
      ...(await checkAgentStarts(settings.agent, {
        cases,
        roles,
        cwd,
        env,
        sandbox: getSandbox(),
        ...(settings.agentStepTimeoutMs ? { commandStepTimeoutMs: settings.agentStepTimeoutMs } : {}),
      })),
    );
    const agent = settings.agent.trim() === '' ? `${DEFAULT_AGENT} (the default: set IWB_AGENT, e.g. openai or command:<cmd>, to run your own)` : settings.agent;
    const notes = [
      `agent ${agent}${settings.agentName ? ` named ${settings.agentName}` : ''}${roles.agent ? ` · agent model ${roles.agent.model}` : ''}`,
      ...agentNotes,
      `judge ${roles.judge ? `probes, then ${roles.judge.model} for slots without one` : 'probes only (offline; IWB_JUDGE_MODEL judges slots without a probe)'}`,
      `browser ${describeChromium({ path: settings.chromium, source: settings.chromiumSource! })}`,
      ...(!roles.judge && unprobed > 0 ? [`warning ${unprobed} of ${slots.length} slots have no probe and no judge model: they will be unjudged`] : []),
      ...(config.file ? [`config ${config.file}${config.unread.length ? ` (not read by this build: ${config.unread.join(', ')})` : ''}`] : []),
    ];
    return { settings, config, run, notes };
  } catch (e) {
    if (isUserError(e)) throw e;
    // The readers throw plain errors that already name the variable and the value.
    if (e instanceof Error && /^environment variable /.test(e.message)) throw new StartError(e.message);
    throw e;
  }
}

export function isUserError(e: unknown): e is Error {
  return e instanceof StartError || e instanceof AgentStartError || e instanceof DatasetError || e instanceof EnvError || e instanceof ConfigFileError || e instanceof ChromiumMissing || e instanceof RunConfigError;
}

/**
 * One exit code per kind of mistake, the same from a run (playwright.config.ts) and from `iwb` (cli/main.ts):
 * a duplicate id exits 3 from `iwb dataset check` and from a run alike. 1 stays Playwright's (tests failed)
 * and `dataset check`'s (the dataset loads, but its stored weights disagree). docs/exit-codes.md lists them.
 */
export const EXIT_CODES = { failed: 1, usage: 2, dataset: 3, agent: 4 } as const;

export function exitCodeOf(e: Error): number {
  if (e instanceof DatasetError) return EXIT_CODES.dataset;
  if (e instanceof AgentStartError) return EXIT_CODES.agent;
  return EXIT_CODES.usage;
}
