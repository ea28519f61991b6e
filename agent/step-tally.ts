import type { ScriptCounts } from '../protocol/annotations.js';
import type { Decision, ReplyPaths } from './types.js';

/**
 * What a trajectory counts of its decisions, in two readings kept side by side so a report under either
 * profile reads the same run folder:
 * - `counts`, `questionBeforeCode`, `codeAlongside`: what each step did (the `iwb` profile's reading);
 * - `script`: what the paper's `result_analyze.py` sees in each reply's text (the `paper` profile's).
 * Kept apart from the episode loop so a log recorded elsewhere (the paper's harness) is counted exactly
 * as a run counts its own steps.
 */
export interface StepTally {
  counts: { clarify: number; implement: number; verify: number; submit: number; invalid: number };
  questionBeforeCode: boolean;
  /** Any file written yet: an implement, or files carried by a verify or submit reply. */
  coded: boolean;
  /**
   * Steps that wrote files alongside another action (a verify or a submit in the same reply). The
   * pooled VCI counts each such step twice among the code steps, as the paper's script does.
   */
  codeAlongside: number;
  script: ScriptCounts;
}

export function newTally(): StepTally {
  return {
    counts: { clarify: 0, implement: 0, verify: 0, submit: 0, invalid: 0 },
    questionBeforeCode: false,
    coded: false,
    codeAlongside: 0,
    script: { replies: 0, questions: 0, codeSteps: 0, verifies: 0, finished: false, formatErrors: 0, codeAlongside: 0, askedBeforeCode: false },
  };
}

type Tallied = Pick<Decision, 'writes' | 'paths'> & ({ action: { type: keyof StepTally['counts'] } } | { invalid: string });

/** A decision's paths when its protocol has no text the script could read: what the step did. */
function pathsOf(decision: Tallied): ReplyPaths {
  const type = 'action' in decision ? decision.action.type : undefined;
  return { ask: type === 'clarify', code: type === 'implement' || Boolean(decision.writes?.length), verify: type === 'verify', finish: type === 'submit' };
}

/** Counts one decision into the tally. */
export function tallyDecision(t: StepTally, decision: Tallied): void {
  tallyScript(t.script, decision.paths ?? pathsOf(decision));
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

/**
 * The script's count of one reply: code is a code step whatever else the reply holds; then one path is
 * credited, finish over question over verify, and a reply with none of the four is a format error. Code
 * beside a credited path is counted again (its VCI denominator). A question counts for PCR when no code
 * came before it, the reply's own code included (the script marks the first code turn before it looks at
 * the question), and whether or not the question was credited.
 */
function tallyScript(s: ScriptCounts, p: ReplyPaths): void {
  s.replies++;
  if (p.code) s.codeSteps++;
  if (p.finish) s.finished = true;
  else if (p.ask) s.questions++;
  else if (p.verify) s.verifies++;
  else if (!p.code) s.formatErrors++;
  if (p.code && (p.finish || p.ask || p.verify)) s.codeAlongside++;
  if (p.ask && s.codeSteps === 0) s.askedBeforeCode = true;
}
