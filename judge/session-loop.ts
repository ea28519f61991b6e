import type { z } from 'zod';
import type { ModelClient } from '../llm/client.js';
import { describeError, InfraError, isLlmError } from '../llm/errors.js';
import type { ChatMessage, ContentPart, StructuredResult } from '../llm/types.js';
import type { TokenUsage } from '../llm/usage.js';
import { isPageUnresponsive, PAGE_UNRESPONSIVE_STEP, responsive, unresponsiveEvidence } from '../site/unresponsive.js';
import type { WeightedSlot } from '../slots/schema.js';
import { perform } from '../vision/act.js';
import { describeAction, type JudgeAction } from '../vision/actions.js';
import { newNonce } from '../vision/neutralise.js';
import type { PageGuard } from '../vision/page-guard.js';
import { labelPage } from '../vision/som.js';
import { findInjection, hiddenText } from './injection.js';
import { actsOnPage, sawPage } from './last-view.js';
import type { PageView } from './prompt.js';
import { ACTION_LIMIT_MS, firstLine, openForJudging, readView, targetOf } from './session-page.js';
import { attachPng, judgeStep } from './test-hooks.js';
import type { JudgeStep, SiteUnderTest } from './types.js';
import type { JudgePhases } from '../protocol/verdict.js';
import { pageWork } from '../site/page-gate.js';

/**
 * The one judge-session loop: the model explores the site through labelled screenshots, one action per
 * turn, settling slots as it goes, until its reply ends the session or the turn budget does (the last turn
 * demands verdicts). What differs between sessions is a parameter: the rules (budget, screenshot memory,
 * sticky pass, what an unsettled slot becomes) and the dialogue (what each request holds, which reply
 * schema, what a reply means). judge/llm-session.ts and judge/paper-session.ts are the two dialogues.
 */

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
  /** Where the time went; absent in a session read back from disk (judge/case-session-cache.ts), which took none now. */
  phases?: JudgePhases;
}

export interface SessionRules {
  /** Turns at most; the last one demands verdicts. */
  turns: number;
  /** Screenshots a request keeps, the latest ones (null: all the dialogue holds). */
  screenshotMemory: number | null;
  /** A pass once given stands whatever a later turn says. */
  stickyPass: boolean;
  /** What a slot the session ended without settling becomes. */
  unmentioned: 'fail' | 'errored';
}

export interface SlotVerdict {
  slot: string;
  status: 'pass' | 'fail';
  evidence: string;
}

/** The evidence a slot left unsettled at the end gets, and whether it counts as never mentioned. */
export interface Unsettled {
  evidence: string;
  unmentioned: boolean;
}

/** What one reply says: verdicts (by slot id), and one action or the session's end. */
export type TurnReading = { thought: string; verdicts: SlotVerdict[] } & ({ act: JudgeAction } | { end: { step: string; unsettled: Unsettled } });

export interface TurnView {
  turn: number;
  final: boolean;
  /** Slot ids still without a verdict, in the slots' order. */
  open: string[];
  /** The page this turn, unless the final turn shows none. */
  page?: { view: PageView; screenshot: Buffer; nonce: string };
}

/** The prompt and reply shape of a session; one per session run (it may keep the conversation). */
export interface Dialogue<T> {
  finalShowsPage: boolean;
  /** Records the page the judge last saw, for a failed slot's picture (judge/last-view.ts). */
  keepsLastView: boolean;
  /** How slots still open are left when the budget runs out without a reply that ends the session. */
  exhausted: Unsettled;
  shotName(turn: number): string;
  /** The whole request of this turn, before screenshot memory applies. */
  request(t: TurnView): ChatMessage[];
  schema(final: boolean): { schema: z.ZodType<T>; name: string };
  read(value: T, final: boolean): TurnReading;
  replied(value: T): void;
  acted(turn: number, action: string, outcome: string): void;
}

export async function runJudgeSession<T>(client: ModelClient, site: SiteUnderTest, slots: WeightedSlot[], rules: SessionRules, dialogue: Dialogue<T>): Promise<SessionResult> {
  const started = Date.now();
  const { page } = site;
  const steps: JudgeStep[] = [];
  const tokens: TokenUsage = { prompt: 0, completion: 0 };
  const outcomes = new Map<string, SlotOutcome>();
  const ids = new Set(slots.map((s) => s.id));
  const open = () => slots.map((s) => s.id).filter((id) => !outcomes.has(id));
  const closeOpen = (status: SlotOutcome['status'], evidence: string, unmentioned = false) =>
    open().forEach((id) => outcomes.set(id, { status, evidence, ...(unmentioned ? { unmentioned } : {}) }));
  const settle = (verdicts: SlotVerdict[]) => {
    for (const v of verdicts) {
      if (!ids.has(v.slot)) continue;
      // Sticky: a pass once given stands whatever a later turn says, as the paper's scoring reads its judge.
      if (rules.stickyPass && outcomes.get(v.slot)?.status === 'pass') continue;
      outcomes.set(v.slot, { status: v.status, evidence: v.evidence });
    }
  };
  let injection: string | null = null;
  let unsettled = dialogue.exhausted;
  const phases: JudgePhases = { open: 0, look: 0, model: 0, act: 0, looks: 0, acts: 0 };
  const timed = async <R>(phase: 'open' | 'look' | 'model' | 'act', work: () => Promise<R>): Promise<R> => {
    const t0 = performance.now();
    try {
      return await work();
    } finally {
      phases[phase] += Math.round(performance.now() - t0);
    }
  };

  let guard: PageGuard | undefined;
  try {
    guard = await timed('open', () => openForJudging(page, site.url));
    for (let turn = 1; turn <= rules.turns; turn++) {
      const final = turn === rules.turns;
      if (final && open().length === 0) break;
      const labels = final && !dialogue.finalShowsPage ? null : await timed('look', () => pageWork(() => responsive(page, labelPage(page), 'labelling the page')));
      if (labels && dialogue.keepsLastView) sawPage(page, labels.screenshot);
      try {
        let shown: TurnView['page'];
        let frame: { screenshot?: string } = {};
        if (labels) {
          phases.looks++;
          const view = await timed('look', () => pageWork(() => responsive(page, readView(page, labels, guard!), 'reading the page')));
          injection ??= findInjection([view.title, view.elements, view.visibleText, view.dialogs.join('\n'), view.path, await hiddenText(page)].join('\n'))?.excerpt ?? null;
          const shot = dialogue.shotName(turn);
          if (await attachPng(shot, labels.labelled)) frame = { screenshot: shot };
          shown = { view, screenshot: labels.labelled, nonce: newNonce() };
        }
        const messages = withMemory(dialogue.request({ turn, final, open: open(), ...(shown ? { page: shown } : {}) }), rules.screenshotMemory);
        const { schema, name } = dialogue.schema(final);
        const reply: StructuredResult<T> = await timed('model', () => client.structured(messages, schema, name));
        tokens.prompt += reply.usage.prompt;
        tokens.completion += reply.usage.completion;
        if (reply.usage.unknown) tokens.unknown = true;
        if (!reply.ok) {
          closeOpen('errored', `the judge's reply never matched its schema (${reply.error.attempts} attempts): ${reply.error.issues.slice(0, 300)}`);
          steps.push({ action: 'invalid reply', detail: reply.error.issues.slice(0, 300) });
          break;
        }
        dialogue.replied(reply.value);
        const read = dialogue.read(reply.value, final);
        settle(read.verdicts);
        if ('end' in read) {
          steps.push({ action: read.end.step, detail: read.thought.slice(0, 500), ...frame });
          unsettled = read.end.unsettled;
          break;
        }
        // The reply schema of a turn without a page has no action; a dialogue that breaks this is a bug here.
        if (!labels) throw new Error('the judge acted on a turn that showed no page');
        const action = read.act;
        const title = `judge: ${describeAction(action)}${targetOf(action, labels)}`;
        if (dialogue.keepsLastView) actsOnPage(page);
        phases.acts++;
        const result = await timed('act', () => judgeStep(title, () => perform(page, action, labels, guard!, ACTION_LIMIT_MS)));
        dialogue.acted(turn, describeAction(action), result.outcome);
        steps.push({ action: describeAction(action), detail: result.outcome, ...frame });
      } finally {
        // Releasing handles is a message to the renderer, which a hung page never answers.
        if (labels) await responsive(page, labels.dispose(), 'releasing the labels', 2000).catch(() => undefined);
      }
    }
    closeOpen(rules.unmentioned, unsettled.evidence, unsettled.unmentioned);
  } catch (e) {
    if (isPageUnresponsive(e)) {
      // The agent's page hung or crashed: what the judge could not see is not there.
      const why = unresponsiveEvidence(e);
      closeOpen('fail', why);
      steps.push({ action: PAGE_UNRESPONSIVE_STEP, detail: why.slice(0, 500) });
    } else {
      const why = e instanceof InfraError ? `the judge model could not be reached: ${describeError(e)}` : isLlmError(e) ? describeError(e) : `the judge's browser failed: ${firstLine(e)}`;
      closeOpen('errored', why);
      steps.push({ action: 'error', detail: why.slice(0, 500) });
    }
  } finally {
    if (guard) await responsive(page, guard.dispose(), 'releasing the page guard', 2000).catch(() => undefined);
  }
  return { outcomes, steps, injection, blockedRequests: guard?.blocked() ?? 0, tokens, durationMs: Date.now() - started, phases };
}

const OMITTED = '(The screenshot and page content of this turn are no longer shown.)';

/**
 * The conversation as sent: observations older than the last `keep` that carry a screenshot lose it and
 * their page block, keeping the trusted text (what the judge was told it did). null keeps everything.
 */
export function withMemory(messages: ChatMessage[], keep: number | null): ChatMessage[] {
  if (keep === null) return messages;
  let kept = 0;
  const out: ChatMessage[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    const hasImage = m.role === 'user' && typeof m.content !== 'string' && m.content.some((p) => p.type === 'image');
    if (!hasImage || kept < keep) {
      if (hasImage) kept++;
      out.unshift(m);
      continue;
    }
    const first = (m.content as ContentPart[]).find((p) => p.type === 'text');
    out.unshift({ role: 'user', content: `${first?.type === 'text' ? first.text : ''}\n${OMITTED}` });
  }
  return out;
}
