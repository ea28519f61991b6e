import type { Profile } from '../config/profiles.js';
import type { ModelClient } from '../llm/client.js';
import type { ChatMessage } from '../llm/types.js';
import type { WeightedSlot } from '../slots/schema.js';
import { finalMessage, observationMessage, openingText, paperSystemPrompt } from './paper-prompt.js';
import { PaperFinalSchema, PaperTurnSchema, type PaperTurn } from './replies.js';
import { runJudgeSession, type Dialogue, type SessionResult, type SessionRules, type TurnReading } from './session-loop.js';
import type { SiteUnderTest } from './types.js';

/**
 * The paper's judge session, a dialogue of the one session loop (judge/session-loop.ts): one conversation
 * per case that audits every listed slot. Each turn the judge sees a labelled screenshot, may settle any
 * slots by id and takes one action; it keeps only its last few screenshots; the last turn shows no page
 * and demands a verdict for every slot still open. What the verdicts mean follows the profile: a pass may
 * be sticky, a slot never settled is failed or errored.
 */

export type PaperRules = Pick<Profile, 'judgeTurns' | 'judgeScreenshotMemory' | 'stickyPass' | 'unmentioned'>;

export interface PaperSessionRequest {
  client: ModelClient;
  site: SiteUnderTest;
  slots: WeightedSlot[];
  /** The request the judge holds the site to (the gold one, or the degraded one the agent saw). */
  instruction: string;
  rules: PaperRules;
}

type Reply = Omit<PaperTurn, 'action'> & { action?: PaperTurn['action'] };

export function paperSessionRules(rules: PaperRules): SessionRules {
  return { turns: rules.judgeTurns, screenshotMemory: rules.judgeScreenshotMemory, stickyPass: rules.stickyPass, unmentioned: rules.unmentioned };
}

export function runPaperSession(req: PaperSessionRequest): Promise<SessionResult> {
  return runJudgeSession(req.client, req.site, req.slots, paperSessionRules(req.rules), paperDialogue(req));
}

export function paperDialogue(req: PaperSessionRequest): Dialogue<Reply> {
  const turns = req.rules.judgeTurns;
  const messages: ChatMessage[] = [{ role: 'system', content: paperSystemPrompt() }];
  let lead = openingText(req.slots, req.instruction, turns);
  const capped = { evidence: `the judge never gave a verdict for this slot in its session (${turns} turns at most)`, unmentioned: true };
  return {
    finalShowsPage: false,
    keepsLastView: false,
    exhausted: capped,
    shotName: (turn) => `judge case ${req.site.case.id} turn ${turn}.png`,
    request({ turn, open, page }) {
      messages.push(page ? observationMessage({ lead, turn, turns, open, view: page.view, screenshot: page.screenshot, nonce: page.nonce }) : finalMessage(lead, open));
      return messages;
    },
    schema: (final) => (final ? { schema: PaperFinalSchema, name: 'judge_paper_final' } : { schema: PaperTurnSchema, name: 'judge_paper_turn' }),
    read(reply, final): TurnReading {
      const { thought, verdicts, action } = reply;
      if (final || !action) return { thought, verdicts, end: { step: 'forced verdicts', unsettled: capped } };
      // As in the paper, settling every slot does not end the session: only `done` or the turn cap does.
      if (action.kind === 'done') return { thought, verdicts, end: { step: 'done', unsettled: { evidence: 'the judge ended its session without a verdict for this slot', unmentioned: true } } };
      return { thought, verdicts, act: action };
    },
    replied: (reply) => void messages.push({ role: 'assistant', content: JSON.stringify(reply) }),
    acted: (_turn, action, outcome) => {
      lead = `Your last action: ${action} -> ${outcome}`;
    },
  };
}
