import { readVariables, type EnvRecord } from './env-read.js';
import { PROFILES, type JudgeMode, type ProfileName } from './profiles.js';
import { JUDGE_TABLE, SETTINGS_TABLE } from './settings-table.js';

/**
 * The judge's environment variables (rows of config/settings-table.ts), read by config/env.ts with the rest
 * and passed down: IWB_JUDGE_MODE = slot | case (the profile's session when unset); IWB_JUDGE_STEP_CAP =
 * judge actions per session; IWB_JUDGE_SLOTS_IN_FLIGHT = a case's model-judged slots judged at once.
 */
export interface JudgeSettings {
  mode: JudgeMode;
  stepCap?: number;
  slotsInFlight: number;
}

export const DEFAULT_SLOTS_IN_FLIGHT = 4;

export function readJudgeSettings(env: EnvRecord): JudgeSettings {
  const { mode, stepCap, slotsInFlight } = readVariables(JUDGE_TABLE, env);
  const { profile } = readVariables({ profile: SETTINGS_TABLE.profile }, env);
  return { mode: judgeMode(profile, mode), ...(stepCap !== undefined ? { stepCap } : {}), slotsInFlight: slotsInFlight ?? DEFAULT_SLOTS_IN_FLIGHT };
}

/**
 * The one knob of the judge's session: the profile sets the default, IWB_JUDGE_MODE overrides it where the
 * profile allows; a mode it does not allow (a per-slot session under the paper's case-wide judge) stops the
 * run at start, naming both settings, instead of the profile silently winning.
 */
export function judgeMode(profile: ProfileName, chosen: JudgeMode | undefined): JudgeMode {
  const { judgeSession, judgeModes } = PROFILES[profile];
  if (chosen === undefined) return judgeSession;
  if (judgeModes.includes(chosen)) return chosen;
  throw new Error(
    `environment variable ${JUDGE_TABLE.mode.env}: ${chosen} is not a judge session ${SETTINGS_TABLE.profile.env}=${profile} allows (${judgeModes.join(' or ')}, by default ${judgeSession}); ` +
      `unset ${JUDGE_TABLE.mode.env} or set it to ${judgeModes.join(' or ')}, or choose another ${SETTINGS_TABLE.profile.env}`,
  );
}
