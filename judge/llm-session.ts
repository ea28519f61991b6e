import type { Page } from '@playwright/test';
import type { ModelClient } from '../llm/client.js';
import { describeError, InfraError, isLlmError } from '../llm/errors.js';
import { isPageUnresponsive, PAGE_RESPONSE_MS, responsive, unresponsiveEvidence } from '../site/unresponsive.js';
import type { WeightedSlot } from '../slots/schema.js';

/** An action may wait on its own timeouts (a click, a navigation) before the page counts as hung. */
export const ACTION_LIMIT_MS = PAGE_RESPONSE_MS * 2;
import { perform } from '../vision/act.js';
import { describeAction, type JudgeAction } from '../vision/actions.js';
import { CaseForcedSchema, CaseReplySchema, SlotForcedSchema, SlotReplySchema, type Decision } from './replies.js';
import { findInjection, hiddenText } from './injection.js';
import { guardPage, type PageGuard } from '../vision/page-guard.js';
import { turnMessages, type JudgeMode, type PageView } from './prompt.js';
import { newNonce } from '../vision/neutralise.js';
import { describeElement, installClickTracker, labelPage, type Labelling } from '../vision/som.js';
import { attachPng, judgeStep } from './test-hooks.js';
import { actsOnPage, sawPage } from './last-view.js';
import type { JudgeStep, SiteUnderTest } from './types.js';
import type { TokenUsage } from '../llm/usage.js';

/**
 * One judge session: the model explores the site through labelled screenshots, one action per turn,
 * until it decides or the step cap forces a decision. Used per slot (one slot) and per case (all slots).
 */

export interface SessionRequest {
  client: ModelClient;
  site: SiteUnderTest;
  slots: WeightedSlot[];
  mode: JudgeMode;
  stepCap: number;
}

export interface SlotOutcome {
  status: 'pass' | 'fail' | 'errored';
  evidence: string;
  /** The judge never gave this slot a verdict (see Verdict.unmentioned). */
  unmentioned?: boolean;
}

export interface SessionResult {
  outcomes: Map<string, SlotOutcome>;
  steps: JudgeStep[];
  /** An excerpt of page text that addressed the judge, if any. */
  injection: string | null;
  blockedRequests: number;
  tokens: TokenUsage;
  durationMs: number;
}

const VISIBLE_TEXT_LIMIT = 4000;

export async function runSession(req: SessionRequest): Promise<SessionResult> {
  const started = Date.now();
  const { page } = req.site;
  const steps: JudgeStep[] = [];
  const tokens: TokenUsage = { prompt: 0, completion: 0 };
  const outcomes = new Map<string, SlotOutcome>();
  const history: string[] = [];
  let injection: string | null = null;
  const label = req.mode === 'slot' ? req.slots[0]!.id : `case ${req.site.case.id}`;
  const errorAll = (evidence: string) => req.slots.forEach((s) => outcomes.set(s.id, { status: 'errored', evidence }));
  const failAll = (evidence: string) => req.slots.forEach((s) => outcomes.set(s.id, { status: 'fail', evidence }));

  let guard: PageGuard | undefined;
  try {
    guard = await openForJudging(page, req.site.url);
    const schemas = req.mode === 'slot' ? { act: SlotReplySchema, forced: SlotForcedSchema } : { act: CaseReplySchema, forced: CaseForcedSchema };

    for (let step = 1; step <= req.stepCap + 1; step++) {
      const forced = step > req.stepCap;
      const labels = await responsive(page, labelPage(page), 'labelling the page');
      sawPage(page, labels.screenshot);
      try {
        const view = await responsive(page, readView(page, labels, guard), 'reading the page');
        injection ??= findInjection([view.title, view.elements, view.visibleText, view.dialogs.join('\n'), view.path, await hiddenText(page)].join('\n'))?.excerpt ?? null;
        const shot = `judge ${label} step ${step}.png`;
        const attached = await attachPng(shot, labels.labelled);
        const messages = turnMessages(
          { mode: req.mode, slots: req.slots, goldInstruction: req.site.case.task.goldInstruction, history, step, stepCap: req.stepCap, forced, view, screenshot: labels.labelled },
          newNonce(),
        );
        const schema = forced ? schemas.forced : schemas.act;
        const reply = await req.client.structured(messages, schema, forced ? 'judge_verdict' : 'judge_step');
        tokens.prompt += reply.usage.prompt;
        tokens.completion += reply.usage.completion;
        if (reply.usage.unknown) tokens.unknown = true;
        if (!reply.ok) {
          errorAll(`the judge's reply never matched its schema (${reply.error.attempts} attempts): ${reply.error.issues.slice(0, 300)}`);
          steps.push({ action: 'invalid reply', detail: reply.error.issues.slice(0, 300) });
          break;
        }
        const action = reply.value.action as JudgeAction | Decision;
        if (action.kind === 'verdict' || action.kind === 'verdicts') {
          decide(action, req.slots, outcomes);
          steps.push({ action: forced ? 'forced verdict' : 'verdict', detail: reply.value.thought.slice(0, 500), ...(attached ? { screenshot: shot } : {}) });
          break;
        }
        const title = `judge: ${describeAction(action)}${targetOf(action, labels)}`;
        actsOnPage(page);
        const result = await judgeStep(title, () => responsive(page, perform(page, action, labels, guard!), describeAction(action), ACTION_LIMIT_MS));
        history.push(`step ${step}: ${describeAction(action)} -> ${result.outcome}`);
        steps.push({ action: describeAction(action), detail: result.outcome, ...(attached ? { screenshot: shot } : {}) });
      } finally {
        // Releasing handles is a message to the renderer, which a hung page never answers.
        await responsive(page, labels.dispose(), 'releasing the labels', 2000).catch(() => undefined);
      }
    }
    if (outcomes.size === 0 && req.slots.length > 0) errorAll('the judge session ended without a verdict');
  } catch (e) {
    if (isPageUnresponsive(e)) {
      // The agent's page hung or crashed: what the judge could not see is not there.
      const why = unresponsiveEvidence(e);
      failAll(why);
      steps.push({ action: 'page unresponsive', detail: why.slice(0, 500) });
      return { outcomes, steps, injection, blockedRequests: guard?.blocked() ?? 0, tokens, durationMs: Date.now() - started };
    }
    const why = e instanceof InfraError ? `the judge model could not be reached: ${describeError(e)}` : isLlmError(e) ? describeError(e) : `the judge's browser failed: ${firstLine(e)}`;
    errorAll(why);
    steps.push({ action: 'error', detail: why.slice(0, 500) });
  } finally {
    if (guard) await responsive(page, guard.dispose(), 'releasing the page guard', 2000).catch(() => undefined);
  }
  return { outcomes, steps, injection, blockedRequests: guard?.blocked() ?? 0, tokens, durationMs: Date.now() - started };
}

function decide(d: Decision, slots: WeightedSlot[], out: Map<string, SlotOutcome>): void {
  if (d.kind === 'verdict') {
    out.set(slots[0]!.id, { status: d.status, evidence: d.evidence });
    return;
  }
  const wanted = new Set(slots.map((s) => s.id));
  for (const v of d.verdicts) if (wanted.has(v.slot) && !out.has(v.slot)) out.set(v.slot, { status: v.status, evidence: v.evidence });
  for (const s of slots) if (!out.has(s.id)) out.set(s.id, { status: 'errored', evidence: 'the judge gave no verdict for this slot', unmentioned: true });
}

export async function readView(page: Page, labels: Labelling, guard: PageGuard): Promise<PageView> {
  const [title, visibleText] = await Promise.all([
    page.title().catch(() => ''),
    page.evaluate(() => document.body?.innerText ?? '').catch(() => ''),
  ]);
  const url = new URL(page.url());
  const text = visibleText.replace(/\n{3,}/g, '\n\n').trim();
  return {
    path: url.pathname + url.search + url.hash,
    title,
    elements: labels.text,
    visibleText: text.length > VISIBLE_TEXT_LIMIT ? text.slice(0, VISIBLE_TEXT_LIMIT) + ' […]' : text,
    dialogs: guard.takeDialogs(),
    blockedHosts: guard.blockedHosts(),
  };
}

export function targetOf(a: JudgeAction, labels: Labelling): string {
  if (a.kind !== 'click' && a.kind !== 'type' && a.kind !== 'select') return '';
  const e = labels.elements[a.element - 1];
  return e ? ` on ${describeElement(e).replace(/^\[\d+\] /, '')}` : '';
}

export const firstLine = (e: unknown) => String((e as Error)?.message ?? e).split('\n')[0]!.slice(0, 300);

/**
 * The judged page at the site's root, guarded to the site, with the click tracker in place before any
 * script runs. A page still loading after 3 s is judged as far as it got.
 */
export async function openForJudging(page: Page, siteUrl: string): Promise<PageGuard> {
  const guard = await guardPage(page, siteUrl);
  await installClickTracker(page);
  await page.goto(guard.resolve('/')!, { waitUntil: 'domcontentloaded', timeout: 10_000 });
  await page.waitForLoadState('load', { timeout: 3000 }).catch(() => {});
  return guard;
}
