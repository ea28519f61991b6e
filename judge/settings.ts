import { z } from 'zod';
import { declareEnv } from '../config/env-registry.js';
import type { JudgeMode } from './prompt.js';

/**
 * The judge's environment variables, read by config/env.ts with the rest and
 * passed down: IWB_JUDGE_MODE = slot (default) | case; IWB_JUDGE_STEP_CAP = judge actions per session.
 */
export interface JudgeSettings {
  mode: JudgeMode;
  stepCap?: number;
}

const Schema = z.object({
  mode: z.enum(['slot', 'case']).default('slot'),
  stepCap: z.coerce.number().int().min(1).max(50).optional(),
});
const VARIABLES = {
  mode: declareEnv('IWB_JUDGE_MODE', 'slot (one judge session per slot test) or case (one per case)'),
  stepCap: declareEnv('IWB_JUDGE_STEP_CAP', 'judge actions before a forced verdict'),
} as const;

export function readJudgeSettings(env: Readonly<Record<string, string | undefined>>): JudgeSettings {
  const raw: Record<string, string> = {};
  for (const [key, variable] of Object.entries(VARIABLES)) {
    const v = env[variable]?.trim();
    if (v) raw[key] = v;
  }
  const parsed = Schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = issue.path[0] as keyof typeof VARIABLES;
    throw new Error(`environment variable ${VARIABLES[key]}: ${issue.message} (got ${JSON.stringify(raw[key])})`);
  }
  return { mode: parsed.data.mode, ...(parsed.data.stepCap !== undefined ? { stepCap: parsed.data.stepCap } : {}) };
}
