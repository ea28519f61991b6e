import type { Persona, Task } from '../slots/schema.js';
import { seedFor } from '../stats/prng.js';
import type { DegradedInstruction } from './types.js';
import type { Operator } from './persona-module.js';
import { PERSONA_MODULES } from './registry.js';

export type { Operator } from './persona-module.js';

/** Each persona's offline operator (personas/<id>/operator.ts), keyed by persona. */
export const OPERATORS = Object.fromEntries(Object.values(PERSONA_MODULES).map((m) => [m.id, m.operator])) as Record<Persona, Operator>;

/** The offline degradation of one task for one persona; the run seed is mixed with task and persona. */
export function degradeOffline(task: Task, persona: Persona, seed: number): DegradedInstruction {
  return OPERATORS[persona](task, seedFor(seed, task.id, persona));
}
