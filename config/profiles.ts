import type { Profile } from './profile.js';
import { profile as iwb } from './profiles/iwb.js';
import { profile as paper } from './profiles/paper.js';

/**
 * A profile is a bundle: the user, the judge session, the reading of the agent's replies and the scoring a
 * run follows, one module per profile in config/profiles/ (`iwb.ts`, `paper.ts`), each naming every rule
 * below, so a rule differs between profiles in exactly one place per profile. `iwb` keeps harness failures
 * apart from the model's; `paper` follows the published scripts so numbers line up with the paper's tables.
 * The bundles are data, low in the layers: each layer turns a rule into its strategy (judge/select.ts the
 * session, personas/user.ts the user, reporters/ the scoring), none branches on a profile's name.
 */
export const PROFILE_NAMES = ['iwb', 'paper'] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

export { JUDGE_MODES, type JudgeMode, type Profile } from './profile.js';

/** The bundles, one module each in config/profiles/ (test/profile-bundles.test.ts lists the folder against this table). */
export const PROFILES: Readonly<Record<ProfileName, Profile>> = { iwb, paper };

export function profileOf(name: ProfileName): Profile {
  return PROFILES[name];
}
