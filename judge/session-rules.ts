import type { Profile } from '../config/profiles.js';
import { DEFAULT_STEP_CAP } from './llm-judge.js';
import { iwbSessionRules } from './llm-session.js';
import { paperSessionRules } from './paper-session.js';
import type { SessionRules } from './session-loop.js';

/**
 * The rules of the judge session a run's profile holds (turn budget, screenshot memory, sticky pass, the
 * unmentioned rule): the one place that says which session a profile runs, for the judge and for whoever
 * budgets its time (fixtures/runtime.ts gives a slot test as many model timeouts as the session has turns).
 */
export function sessionRulesOf(profile: Profile, stepCap: number | undefined): SessionRules {
  return profile.judgeSession === 'case' ? paperSessionRules(profile) : iwbSessionRules(stepCap ?? DEFAULT_STEP_CAP);
}
