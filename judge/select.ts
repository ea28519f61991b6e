import { createProbeJudge } from './probe-judge.js';
import type { Judge } from './types.js';

/** The judge a run uses. Until a judge model is configured, that is the deterministic probe runner. */
export function selectJudge(): Judge {
  return createProbeJudge();
}
