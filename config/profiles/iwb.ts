import type { Profile } from '../profile.js';

/**
 * The `iwb` profile (the default) as one bundle: its user, its judge session, how its agent's replies are
 * counted, its scoring. A failure of the harness or the judge is kept apart from a failure of the model, so
 * a number says what the agent did; docs/profiles.md gives each rule's reason. The keys keep the table's
 * order: a report re-scored under another profile lists the rules that differ in this order.
 */
export const profile: Profile = {
  // The user: the contained one cannot leak the gold instruction.
  defaultUser: 'contained',
  // The judge session: one per slot (judge/llm-session.ts), the current screenshot only, the final word stands.
  judgeSession: 'slot',
  // A case-wide session of the per-slot SoM judge (llm-judge's case mode) keeps the iwb rules otherwise.
  judgeModes: ['slot', 'case'],
  judgeTurns: 16,
  judgeScreenshotMemory: null,
  stickyPass: false,
  unmentioned: 'errored',
  judgeInstruction: 'gold',
  crashRule: false,
  // Scoring, and the agent protocol's reading (stepCounting: what each step did).
  vci: 'per-case-mean',
  iasWithoutReasoning: null,
  stepCounting: 'steps',
  erroredVerdict: 'left-out',
  unevaluatedCase: 'left-out',
  tcrWithoutPositive: 'none',
};
