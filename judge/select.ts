import type { ModelClient } from '../llm/client.js';
import type { Role } from '../llm/roles.js';
import { createProbeJudge } from './probe-judge.js';
import type { Judge } from './types.js';

export interface JudgeDeps {
  clients: Partial<Record<Role, ModelClient>>;
}

/** The judge a run uses. Until a judge model is configured, that is the deterministic probe runner. */
export function selectJudge(_deps: JudgeDeps): Judge {
  return createProbeJudge();
}
