import type { Profile } from '../profile.js';

/**
 * The `paper` profile as one bundle: its user, its judge session, how its agent's replies are counted, its
 * scoring, all as the published scripts (AIforIP/InteractWeb-Bench) do, so figures line up with the paper's
 * tables; docs/profiles.md gives each rule and where it differs from `iwb`. The keys keep the table's order.
 */
export const profile: Profile = {
  // The user: the paper's single-prompt user (personas/paper-user.ts).
  defaultUser: 'paper',
  // The judge session: one per case (judge/paper-session.ts), the last 3 screenshots, a pass sticks.
  judgeSession: 'case',
  // The paper's judge is a case session by construction: a per-slot session would not be the paper's judge.
  judgeModes: ['case'],
  judgeTurns: 16,
  judgeScreenshotMemory: 3,
  stickyPass: true,
  unmentioned: 'fail',
  judgeInstruction: 'gold-if-submitted',
  crashRule: true,
  // Scoring, and the agent protocol's reading (stepCounting: what the paper's result_analyze.py sees in a reply).
  vci: 'pooled',
  iasWithoutReasoning: 1,
  stepCounting: 'script',
  erroredVerdict: 'fail',
  unevaluatedCase: 'zero',
  tcrWithoutPositive: 'all-slots',
};
