import type { UserKind } from '../protocol/enums.js';

/**
 * The rules a profile bundle names (config/profiles.ts tables the bundles, config/profiles/ holds one module
 * each). Apart from the table so that a bundle can name its type without importing the table that imports it.
 */

/** IWB_JUDGE_MODE: one judge session per slot test, or one per case. */
export const JUDGE_MODES = ['slot', 'case'] as const;
export type JudgeMode = (typeof JUDGE_MODES)[number];

export interface Profile {
  /** The simulated user when IWB_USER is unset. */
  defaultUser: UserKind;
  /**
   * How the LLM judge is run: one session per slot, or the paper's one session per case. It is the default
   * of IWB_JUDGE_MODE, which may choose only among `judgeModes` (config/judge-settings.ts refuses the others at start).
   */
  judgeSession: JudgeMode;
  /** The judge sessions IWB_JUDGE_MODE may choose under this profile; `judgeSession` is one of them. */
  judgeModes: readonly JudgeMode[];
  /** Turns of the paper-shaped case session; the last one demands a verdict for every slot. */
  judgeTurns: number;
  /** Screenshots the judge keeps in memory (null: all of them). */
  judgeScreenshotMemory: number | null;
  /** A pass, once given in a case session, stands even if a later turn says otherwise. */
  stickyPass: boolean;
  /** A slot the judge never gives a verdict for: failed (paper) or errored (iwb, the harness's gap). */
  unmentioned: 'fail' | 'errored';
  /** The instruction the judge reads: always the gold one, or gold only when the agent submitted. */
  judgeInstruction: 'gold' | 'gold-if-submitted';
  /** A console error, exception or empty body on load fails every slot of the case before judging. */
  crashRule: boolean;
  /** The headline VCI: mean of per-case ratios, or verify steps over code steps pooled over all cases. */
  vci: 'per-case-mean' | 'pooled';
  /** IAS of a trajectory with no reasoning text: not scored (null) or 1, as the paper does. */
  iasWithoutReasoning: null | 1;
  /**
   * How questions, code steps, verifies, submits, PCR and steps are counted: from what each step did, or
   * from what the paper's result_analyze.py sees in each reply's text (agent/step-tally.ts).
   */
  stepCounting: 'steps' | 'script';
  /** A verdict the judge could not give in a case it ran on: left out of rates, or failed (the paper's ERROR). */
  erroredVerdict: 'left-out' | 'fail';
  /** A case whose episode errored, so never judged: left out of TCR, or TCR 0 (the paper's unevaluated log). */
  unevaluatedCase: 'left-out' | 'zero';
  /** TCR of a case without a POSITIVE slot: none, or the evaluator's TCR over all slots rounded to 4 places (the paper's fallback). */
  tcrWithoutPositive: 'none' | 'all-slots';
}
