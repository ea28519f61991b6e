import { readVariables, type EnvRecord } from '../config/env-read.js';
import { JUDGE_TABLE } from '../config/settings-table.js';
import type { JudgeMode } from './prompt.js';

/**
 * The judge's environment variables (rows of config/settings-table.ts), read by config/env.ts with the rest
 * and passed down: IWB_JUDGE_MODE = slot (default) | case; IWB_JUDGE_STEP_CAP = judge actions per session.
 */
export interface JudgeSettings {
  mode: JudgeMode;
  stepCap?: number;
}

export function readJudgeSettings(env: EnvRecord): JudgeSettings {
  const { mode, stepCap } = readVariables(JUDGE_TABLE, env);
  return { mode, ...(stepCap !== undefined ? { stepCap } : {}) };
}
