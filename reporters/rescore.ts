import { PROFILES, type Profile, type ProfileName } from '../config/profiles.js';
import type { SlotRecord } from './slot-record.js';

/**
 * Which of a profile's rules act when a report is built (and so can change in `iwb report --profile`), and
 * which acted while the run judged (the judge's session shape, its memory, sticky passes, the instruction it
 * read, the crash rule, the simulated user): those stay as the run had them, and the report says so.
 */
export const SCORING_RULES = ['unmentioned', 'iasWithoutReasoning', 'vci'] as const satisfies readonly (keyof Profile)[];
const JUDGING_RULES = (Object.keys(PROFILES.iwb) as (keyof Profile)[]).filter((k) => !(SCORING_RULES as readonly string[]).includes(k));

/**
 * A slot record as the given profile scores it. Only a slot the judge never gave a verdict for changes: its
 * status is the profile's rule for that (errored under iwb, failed under paper), not a finding.
 */
export function underProfile<R extends SlotRecord>(r: R, profile: Profile): R {
  return r.unmentioned && (r.status === 'fail' || r.status === 'errored') ? { ...r, status: profile.unmentioned } : r;
}

/** What a reader of a report re-scored under another profile must know; undefined when the profile is the run's own. */
export function profileSwitchNote(runProfile: ProfileName, profile: ProfileName): string | undefined {
  if (runProfile === profile) return undefined;
  const differ = JUDGING_RULES.filter((k) => PROFILES[runProfile][k] !== PROFILES[profile][k]);
  const scoring = SCORING_RULES.filter((k) => PROFILES[runProfile][k] !== PROFILES[profile][k]);
  return `scored under ${profile} from a run judged under ${runProfile}: ${profile}'s scoring rules apply (${scoring.join(', ') || 'none differ'}); its judging rules did not run (${differ.join(', ') || 'none differ'}), so the verdicts are ${runProfile}'s`;
}
