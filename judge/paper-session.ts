import type { Profile } from '../config/profiles.js';
import type { ModelClient } from '../llm/client.js';
import { describeError, InfraError, isLlmError } from '../llm/errors.js';
import type { ChatMessage, StructuredResult } from '../llm/types.js';
import { isPageUnresponsive, responsive, unresponsiveEvidence } from '../site/unresponsive.js';
import type { WeightedSlot } from '../slots/schema.js';
import { perform } from '../vision/act.js';
import { describeAction } from '../vision/actions.js';
import { PaperFinalSchema, PaperTurnSchema, type PaperVerdict } from './replies.js';
import { findInjection, hiddenText } from './injection.js';
import { ACTION_LIMIT_MS, firstLine, openForJudging, readView, targetOf, type SessionResult, type SlotOutcome } from './llm-session.js';
import type { PageGuard } from '../vision/page-guard.js';
import { finalMessage, observationMessage, openingText, paperSystemPrompt, withMemory } from './paper-prompt.js';
import { newNonce } from '../vision/neutralise.js';
import { labelPage } from '../vision/som.js';
import { attachPng, judgeStep } from './test-hooks.js';
import type { JudgeStep, SiteUnderTest } from './types.js';
import type { TokenUsage } from '../llm/usage.js';

/**
 * The paper's judge session: one conversation per case that audits every listed slot. Each turn the judge
 * sees a labelled screenshot, may settle any slots by id and takes one action; it keeps only its last few
 * screenshots; the last turn shows no page and demands a verdict for every slot still open. What the
 * verdicts mean follows the profile: a pass may be sticky, a slot never settled is failed or errored.
 */

export type SessionRules = Pick<Profile, 'judgeTurns' | 'judgeScreenshotMemory' | 'stickyPass' | 'unmentioned'>;

export interface PaperSessionRequest {
  client: ModelClient;
  site: SiteUnderTest;
  slots: WeightedSlot[];
  /** The request the judge holds the site to (the gold one, or the degraded one the agent saw). */
  instruction: string;
  rules: SessionRules;
}

export async function runPaperSession(req: PaperSessionRequest): Promise<SessionResult> {
  const started = Date.now();
  const { page } = req.site;
  const { judgeTurns: turns, judgeScreenshotMemory: memory } = req.rules;
  const steps: JudgeStep[] = [];
  const tokens: TokenUsage = { prompt: 0, completion: 0 };
  const outcomes = new Map<string, SlotOutcome>();
  const ids = new Set(req.slots.map((s) => s.id));
  const open = () => req.slots.map((s) => s.id).filter((id) => !outcomes.has(id));
  const closeOpen = (status: SlotOutcome['status'], evidence: string, unmentioned = false) =>
    open().forEach((id) => outcomes.set(id, { status, evidence, ...(unmentioned ? { unmentioned } : {}) }));
  let injection: string | null = null;
  let unsettled = `the judge never gave a verdict for this slot in its session (${turns} turns at most)`;
  const settle = (verdicts: PaperVerdict[]) => {
    for (const v of verdicts) {
      if (!ids.has(v.slot)) continue;
      // Sticky: a pass once given stands whatever a later turn says, as the paper's scoring reads its judge.
      if (req.rules.stickyPass && outcomes.get(v.slot)?.status === 'pass') continue;
      outcomes.set(v.slot, { status: v.status, evidence: v.evidence });
    }
  };
  const count = <T>(reply: StructuredResult<T>) => {
    tokens.prompt += reply.usage.prompt;
    tokens.completion += reply.usage.completion;
    if (reply.usage.unknown) tokens.unknown = true;
  };
  const invalid = (reply: Extract<StructuredResult<unknown>, { ok: false }>) => {
    closeOpen('errored', `the judge's reply never matched its schema (${reply.error.attempts} attempts): ${reply.error.issues.slice(0, 300)}`);
    steps.push({ action: 'invalid reply', detail: reply.error.issues.slice(0, 300) });
  };

  let guard: PageGuard | undefined;
  try {
    guard = await openForJudging(page, req.site.url);
    const messages: ChatMessage[] = [{ role: 'system', content: paperSystemPrompt() }];
    let lead = openingText(req.slots, req.instruction, turns);

    // As in the paper, settling every slot does not end the session: only `done` or the turn cap does.
    for (let turn = 1; turn <= turns; turn++) {
      if (turn === turns) {
        if (open().length === 0) break;
        messages.push(finalMessage(lead, open()));
        const reply = await req.client.structured(withMemory(messages, memory), PaperFinalSchema, 'judge_paper_final');
        count(reply);
        if (!reply.ok) {
          invalid(reply);
          break;
        }
        settle(reply.value.verdicts);
        steps.push({ action: 'forced verdicts', detail: reply.value.thought.slice(0, 500) });
        break;
      }
      const labels = await responsive(page, labelPage(page), 'labelling the page');
      try {
        const view = await responsive(page, readView(page, labels, guard), 'reading the page');
        injection ??= findInjection([view.title, view.elements, view.visibleText, view.dialogs.join('\n'), view.path, await hiddenText(page)].join('\n'))?.excerpt ?? null;
        const shot = `judge case ${req.site.case.id} turn ${turn}.png`;
        const attached = await attachPng(shot, labels.labelled);
        messages.push(observationMessage({ lead, turn, turns, open: open(), view, screenshot: labels.labelled, nonce: newNonce() }));
        const reply = await req.client.structured(withMemory(messages, memory), PaperTurnSchema, 'judge_paper_turn');
        count(reply);
        if (!reply.ok) {
          invalid(reply);
          break;
        }
        messages.push({ role: 'assistant', content: JSON.stringify(reply.value) });
        settle(reply.value.verdicts);
        const action = reply.value.action;
        const frame = attached ? { screenshot: shot } : {};
        if (action.kind === 'done') {
          steps.push({ action: 'done', detail: reply.value.thought.slice(0, 500), ...frame });
          unsettled = 'the judge ended its session without a verdict for this slot';
          break;
        }
        const title = `judge: ${describeAction(action)}${targetOf(action, labels)}`;
        const result = await judgeStep(title, () => responsive(page, perform(page, action, labels, guard!), describeAction(action), ACTION_LIMIT_MS));
        lead = `Your last action: ${describeAction(action)} -> ${result.outcome}`;
        steps.push({ action: describeAction(action), detail: result.outcome, ...frame });
      } finally {
        // Releasing handles is a message to the renderer, which a hung page never answers.
        await responsive(page, labels.dispose(), 'releasing the labels', 2000).catch(() => undefined);
      }
    }
    closeOpen(req.rules.unmentioned, unsettled, true);
  } catch (e) {
    if (isPageUnresponsive(e)) {
      // The agent's page hung or crashed: what the judge could not see is not there.
      const why = unresponsiveEvidence(e);
      closeOpen('fail', why);
      steps.push({ action: 'page unresponsive', detail: why.slice(0, 500) });
    } else {
      const why = e instanceof InfraError ? `the judge model could not be reached: ${describeError(e)}` : isLlmError(e) ? describeError(e) : `the judge's browser failed: ${firstLine(e)}`;
      closeOpen('errored', why);
      steps.push({ action: 'error', detail: why.slice(0, 500) });
    }
  } finally {
    if (guard) await responsive(page, guard.dispose(), 'releasing the page guard', 2000).catch(() => undefined);
  }
  return { outcomes, steps, injection, blockedRequests: guard?.blocked() ?? 0, tokens, durationMs: Date.now() - started };
}
