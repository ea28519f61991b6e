import type { Decision } from './types.js';

/**
 * What a trajectory counts of its decisions: steps per action, and whether a question came before the
 * first file was written (PCR). Kept apart from the episode loop so a log recorded elsewhere (the paper's
 * harness) can be counted exactly as a run counts its own steps.
 */
export interface StepTally {
  counts: { clarify: number; implement: number; verify: number; submit: number; invalid: number };
  questionBeforeCode: boolean;
  /** Any file written yet: an implement, or files carried by a verify or submit reply. */
  coded: boolean;
  /**
   * Steps that wrote files alongside another action (a question, a verify or a submit in the same reply).
   * The paper's script counts each such reply twice among its code turns (once as code, once as code the
   * dominant action swallowed), which its VCI divides by; the pooled VCI does the same from this count.
   */
  codeAlongside: number;
}

export function newTally(): StepTally {
  return { counts: { clarify: 0, implement: 0, verify: 0, submit: 0, invalid: 0 }, questionBeforeCode: false, coded: false, codeAlongside: 0 };
}

/** Counts one decision into the tally. */
export function tallyDecision(t: StepTally, decision: Pick<Decision, 'writes'> & ({ action: { type: keyof StepTally['counts'] } } | { invalid: string })): void {
  if ('invalid' in decision) {
    t.counts.invalid++;
    return;
  }
  const type = decision.action.type;
  t.counts[type]++;
  if (type === 'clarify' && !t.coded) t.questionBeforeCode = true;
  if (type === 'implement' || decision.writes?.length) t.coded = true;
  if (type !== 'implement' && decision.writes?.length) t.codeAlongside++;
}
