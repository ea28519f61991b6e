import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Browser } from '@playwright/test';
import type { SimulatedUser } from '../personas/types.js';
import type { Case } from '../slots/schema.js';
import type { Action, Observation } from './actions.js';
import { analyseDeadlock } from './deadlock.js';
import { LiveSite } from '../site/live-site.js';
import { SiteOverQuota, type SiteQuota } from '../site/site-quota.js';
import { checkPage } from '../site/render.js';
import { onLiveBrowser } from '../site/browser-lost.js';
import type { SiteOptions, StartedSite } from '../site/site.js';
import type { Trajectory, TrajectoryStep } from './trajectory.js';
import { AgentCrash, publicCase, type Agent } from './types.js';
import { ModelError, SchemaError } from '../llm/errors.js';
import { AUDIT_FAILURE_LIMITS, VerifyRunner } from './verify-step.js';
import { getSandbox } from '../sandbox/sandbox.js';
import { linesOfCode, linesOfCodePaper, Workspace } from './workspace.js';
import { newTally, tallyDecision } from './step-tally.js';
import { addStepUsage } from './step-usage.js';

export interface EpisodeInput {
  case: Case;
  agent: Agent;
  browser: Browser;
  /**
   * The run's browser connected again after its process died (fixtures/shared-browser.ts): the harness's own page
   * work (verify steps, the page check after an edit) moves to it, so another case's page that took the shared
   * browser down does not blind this agent for the rest of its episode. The agent's own `browser` stays as given.
   */
  browserAgain?: (dead?: Browser) => Promise<Browser>;
  user: SimulatedUser;
  /** Folder the episode owns: workspace/ and shots/ go here. */
  dir: string;
  stepCap: number;
  caseHash: string;
  onStep?: (step: TrajectoryStep) => void;
  /** Install and start time limits for npm projects the agent builds. */
  site?: SiteOptions;
  /** Failed verify audits in a row that end the episode; default by difficulty (AUDIT_FAILURE_LIMITS). */
  auditFailureLimit?: number;
  /** The episode's whole budget (IWB_EPISODE_TIMEOUT); past it the episode ends as the agent's failure. */
  budgetMs?: number;
  /** What the site's processes may leave in the workspace (default DEFAULT_SITE_QUOTA). */
  siteQuota?: SiteQuota;
}

/** The episode ran past its budget: the agent was too slow, and what it built is judged. */
class EpisodeBudgetExceeded extends Error {
  override name = 'EpisodeBudgetExceeded';
}

/**
 * Whose failure ended the episode. The agent's own (its model overflowed, refused or was cut off; its
 * process crashed or went silent; it ran past the budget) is a result: the site it left is judged. Only
 * the infrastructure's (an endpoint down, a harness bug) makes the case errored and leaves it out of the rates.
 */
export function blameOf(e: unknown): 'agent' | 'infra' {
  if (e instanceof AgentCrash || e instanceof EpisodeBudgetExceeded || e instanceof SiteOverQuota) return 'agent';
  if ((e instanceof ModelError || e instanceof SchemaError) && e.role === 'agent') return 'agent';
  return 'infra';
}

/**
 * The episode loop: the agent sees the degraded instruction, then one observation per action, until it
 * submits, the step cap is reached or the budget runs out. Every action costs one step. A failure of the
 * agent's own (blameOf) ends the episode as agent-failed and its site is judged; an infrastructure failure
 * ends it as errored, with the message kept, so it is never mistaken for a model that built the wrong site.
 */
export async function runEpisode(input: EpisodeInput): Promise<Trajectory> {
  const { case: c, agent, browser, user, dir, stepCap } = input;
  const started = Date.now();
  const ws = await Workspace.open(path.join(dir, 'workspace'));
  await fs.mkdir(path.join(dir, 'shots'), { recursive: true });
  const steps: TrajectoryStep[] = [];
  const tally = newTally();
  const tokens = { promptTokens: 0, completionTokens: 0 };
  const copilotTokens = { promptTokens: 0, completionTokens: 0 };
  const live = new LiveSite(ws.root, input.site, input.siteQuota);
  let status: Trajectory['status'] = 'step-cap';
  let error: string | undefined;
  let tokensSelfReported = false;
  let deadlock: Trajectory['deadlock'];
  const pageBrowser = input.browserAgain ?? (async () => browser);
  const verifier = new VerifyRunner({
    browser: pageBrowser,
    live,
    dir,
    ...(agent.auditor ? { auditor: agent.auditor } : {}),
    instruction: c.instruction,
    failureLimit: input.auditFailureLimit ?? AUDIT_FAILURE_LIMITS[c.difficulty],
    steps,
    files: () => ws.list(),
  });

  let session: Awaited<ReturnType<Agent['start']>> | undefined;
  let over = false;
  let budgetTimer: NodeJS.Timeout | undefined;
  const budget = new Promise<never>((_, reject) => {
    if (input.budgetMs === undefined) return;
    budgetTimer = setTimeout(() => {
      over = true;
      reject(new EpisodeBudgetExceeded(`the episode ran past its budget of ${Math.round(input.budgetMs! / 1000)} s (IWB_EPISODE_TIMEOUT)`));
    }, input.budgetMs);
  });
  budget.catch(() => undefined);
  const loop = async (): Promise<void> => {
    session = await agent.start({ case: publicCase(c, stepCap), browser, workspace: ws.root, shotsDir: path.join(dir, 'shots') });
    let observation: Observation = { type: 'start', instruction: c.instruction, stepsLeft: stepCap };
    for (let index = 0; index < stepCap && !over; index++) {
      const t0 = Date.now();
      const decision = await session.next(observation);
      if (over) return;
      if (decision.usageSelfReported && decision.usage) tokensSelfReported = true;
      addStepUsage(tokens, decision.usage);
      addStepUsage(copilotTokens, decision.copilotUsage);
      const stepsLeft = stepCap - index - 1;
      const step: TrajectoryStep = { index, action: 'invalid', args: {}, observation: '', latencyMs: 0, usage: decision.usage, note: decision.note };
      if (decision.copilotUsage) step.copilotUsage = decision.copilotUsage;
      if (decision.reasoning) step.reasoning = decision.reasoning;
      if (decision.shell?.length) step.shell = decision.shell;
      tallyDecision(tally, decision);
      if ('invalid' in decision) {
        observation = { type: 'error', message: decision.invalid, stepsLeft };
        step.args = { reason: decision.invalid };
      } else {
        const action = decision.action;
        step.action = action.type;
        step.args = summariseArgs(action);
        if ((action.type === 'verify' || action.type === 'submit') && decision.writes?.length) {
          // The paper's protocol writes a reply's files even when the reply verifies or finishes.
          const writes = decision.writes;
          const outcome = await live.edit(() => ws.apply(writes, []));
          step.written = outcome.written;
          if (outcome.errors.length) step.args = { ...step.args, writeErrors: outcome.errors };
          if (action.type === 'verify' && outcome.written.length) noteSite(step, await live.restart());
        }
        if (action.type === 'submit') {
          status = 'submitted';
          step.observation = 'submitted';
          step.latencyMs = Date.now() - t0;
          record(step);
          break;
        }
        observation = await execute(action, stepsLeft, step);
        if (step.audit) {
          addStepUsage(copilotTokens, step.audit.usage);
        }
      }
      step.observation = describe(observation);
      step.latencyMs = Date.now() - t0;
      record(step);
      if (verifier.deadlocked()) {
        status = 'verification-deadlock';
        // As the paper's harness does, the audit model names the root cause; the agent never reads it.
        const review = await analyseDeadlock(agent.auditor!, c.instruction, steps, dir);
        addStepUsage(copilotTokens, review.usage);
        deadlock = { failedInARow: step.audit?.failedInARow ?? 0, lastReport: step.audit?.report ?? '', ...(review.analysis ? { analysis: review.analysis } : {}), ...(review.analysisError ? { analysisError: review.analysisError } : {}) };
        break;
      }
    }
  };
  try {
    await Promise.race([loop(), budget]);
  } catch (e) {
    status = blameOf(e) === 'agent' ? 'agent-failed' : 'errored';
    error = describeError(e);
  } finally {
    clearTimeout(budgetTimer);
    await session?.close?.().catch(() => undefined);
    const log = session?.stderr?.();
    if (log) await fs.writeFile(path.join(dir, 'agent-stderr.log'), log).catch(() => undefined);
    // The last measure of what the site's processes wrote; over the quota, a finished episode is the agent's failure.
    await live.end().catch((e: unknown) => {
      if (error !== undefined) return;
      status = blameOf(e) === 'agent' ? 'agent-failed' : 'errored';
      error = describeError(e);
    });
  }

  return {
    schemaVersion: 1,
    caseId: c.id,
    persona: c.persona,
    difficulty: c.difficulty,
    agent: { name: agent.name, config: agent.config },
    caseHash: input.caseHash,
    stepCap,
    status,
    ...(error ? { error } : {}),
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    steps,
    counts: tally.counts,
    questionBeforeCode: tally.questionBeforeCode,
    linesOfCode: await linesOfCode(ws),
    locPaper: await linesOfCodePaper(ws.root),
    codeAlongside: tally.codeAlongside,
    scriptCounts: tally.script,
    files: await ws.list(),
    tokens,
    sandbox: getSandbox().detected.isolation,
    ...(tokensSelfReported ? { tokensSelfReported } : {}),
    ...(copilotTokens.promptTokens + copilotTokens.completionTokens > 0 ? { copilotTokens } : {}),
    ...(deadlock ? { deadlock } : {}),
  };

  function record(step: TrajectoryStep): void {
    steps.push(step);
    input.onStep?.(step);
  }

  /** Carries out one action; what the trajectory keeps besides the observation goes on `step`. */
  async function execute(action: Exclude<Action, { type: 'submit' }>, stepsLeft: number, step: TrajectoryStep): Promise<Observation> {
    switch (action.type) {
      case 'clarify': {
        step.userTurn = await user.answer(action.question);
        return { type: 'answer', question: action.question, answer: step.userTurn.answer, stepsLeft };
      }
      case 'implement': {
        const outcome = await live.edit(() => ws.apply(action.files, action.deletes));
        const report = { siteErrors: [] as string[], consoleErrors: [] as string[] };
        if (outcome.written.length + outcome.deleted.length > 0) {
          const site = await live.restart();
          noteSite(step, site);
          report.siteErrors = site.problems;
          // The agent hears about a broken page now, as a developer with the dev server open would.
          if (site.mode !== 'error') {
            report.consoleErrors = await onLiveBrowser(await pageBrowser(), pageBrowser, (b) => checkPage(b, site.url, '/')).then(
              (c) => c.consoleErrors,
              (e: Error) => [`the home page could not be loaded: ${e.message.split('\n')[0]}`],
            );
          }
        }
        return { type: 'implemented', ...outcome, ...report, stepsLeft };
      }
      case 'verify':
        return verifier.run(action, stepsLeft, step);
    }
  }
}

function describeError(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` + ('stderr' in e && e.stderr ? `\nstderr:\n${String(e.stderr)}` : '') : String(e);
}

function noteSite(step: TrajectoryStep, site: StartedSite): void {
  step.site = { mode: site.mode, problems: site.problems };
}

function summariseArgs(action: Action): Record<string, unknown> {
  switch (action.type) {
    case 'clarify':
      return { question: action.question };
    case 'implement':
      return { files: action.files.map((f) => ({ path: f.path, bytes: Buffer.byteLength(f.content) })), deletes: action.deletes };
    case 'verify':
      return { path: action.path, ...(action.criteria ? { criteria: action.criteria } : {}) };
    case 'submit':
      return {};
  }
}

function describe(o: Observation): string {
  switch (o.type) {
    case 'start':
      return 'start';
    case 'answer':
      return `answer: ${o.answer}`;
    case 'implemented':
      return (
        `wrote ${o.written.length} file(s)` +
        (o.deleted.length ? `, deleted ${o.deleted.length}` : '') +
        (o.errors.length ? `; errors: ${o.errors.join('; ')}` : '') +
        (o.siteErrors.length ? `; site errors: ${o.siteErrors.join('; ')}` : '') +
        (o.consoleErrors.length ? `; console errors: ${o.consoleErrors.join('; ')}` : '')
      );
    case 'verified':
      return (
        (o.audit ? `audit of ${o.path} ${o.audit.passed ? 'passed' : 'failed'} (${o.audit.failedInARow}/${o.audit.failureLimit} failed in a row)` : `rendered ${o.path} ("${o.title}")`) +
        (o.siteErrors.length ? `; site errors: ${o.siteErrors.join('; ')}` : '') +
        (o.consoleErrors.length ? `; console errors: ${o.consoleErrors.join('; ')}` : '')
      );
    case 'error':
      return `error: ${o.message}`;
  }
}
