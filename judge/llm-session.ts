import type { ModelClient } from '../llm/client.js';
import type { WeightedSlot } from '../slots/schema.js';
import type { JudgeAction } from '../vision/actions.js';
import { turnMessages, type JudgeMode } from './prompt.js';
import { CaseForcedSchema, CaseReplySchema, SlotForcedSchema, SlotReplySchema, type Decision } from './replies.js';
import { runJudgeSession, type Dialogue, type SessionResult, type SessionRules, type TurnReading } from './session-loop.js';
import type { SiteUnderTest } from './types.js';

/**
 * iwb's judge session (WebVoyager-style), a dialogue of the one session loop (judge/session-loop.ts): every
 * request is the system prompt and one user message with the slots, the judge's own actions so far as text
 * and the current page, so only the current screenshot is ever sent. The judge acts until it gives its
 * verdict (per slot) or every slot's at once (per case); the turn after the step cap demands it. Used per
 * slot (one slot) and per case (all slots).
 */

export interface SessionRequest {
  client: ModelClient;
  site: SiteUnderTest;
  slots: WeightedSlot[];
  mode: JudgeMode;
  stepCap: number;
}

type Reply = { thought: string; action: JudgeAction | Decision };

/** The step cap's actions, then one turn that demands the verdict; a verdict ends the session, so none is sticky. */
export function iwbSessionRules(stepCap: number): SessionRules {
  return { turns: stepCap + 1, screenshotMemory: null, stickyPass: false, unmentioned: 'errored' };
}

export function runSession(req: SessionRequest): Promise<SessionResult> {
  return runJudgeSession(req.client, req.site, req.slots, iwbSessionRules(req.stepCap), iwbDialogue(req));
}

export function iwbDialogue(req: SessionRequest): Dialogue<Reply> {
  const history: string[] = [];
  const label = req.mode === 'slot' ? req.slots[0]!.id : `case ${req.site.case.id}`;
  const schemas = req.mode === 'slot' ? { act: SlotReplySchema, forced: SlotForcedSchema } : { act: CaseReplySchema, forced: CaseForcedSchema };
  return {
    finalShowsPage: true,
    keepsLastView: true,
    exhausted: { evidence: 'the judge session ended without a verdict', unmentioned: false },
    shotName: (step) => `judge ${label} step ${step}.png`,
    request({ turn, final, page }) {
      if (!page) throw new Error('every turn of the iwb session shows the page');
      const { goldInstruction } = req.site.case.task;
      return turnMessages({ mode: req.mode, slots: req.slots, goldInstruction, history, step: turn, stepCap: req.stepCap, forced: final, view: page.view, screenshot: page.screenshot }, page.nonce);
    },
    schema: (final) => (final ? { schema: schemas.forced, name: 'judge_verdict' } : { schema: schemas.act, name: 'judge_step' }),
    read: (reply, final) => readReply(reply, final, req.slots),
    replied: () => undefined,
    acted: (step, action, outcome) => void history.push(`step ${step}: ${action} -> ${outcome}`),
  };
}

function readReply(reply: Reply, final: boolean, slots: WeightedSlot[]): TurnReading {
  const { thought, action } = reply;
  if (action.kind !== 'verdict' && action.kind !== 'verdicts') return { thought, verdicts: [], act: action };
  const end = { step: final ? 'forced verdict' : 'verdict', unsettled: { evidence: 'the judge gave no verdict for this slot', unmentioned: true } };
  if (action.kind === 'verdict') return { thought, verdicts: [{ slot: slots[0]!.id, status: action.status, evidence: action.evidence }], end };
  // A slot named twice in one reply keeps its first verdict.
  const named = new Set<string>();
  return { thought, verdicts: action.verdicts.filter((v) => !named.has(v.slot) && Boolean(named.add(v.slot))), end };
}
