import type { Persona, Task } from '../../slots/schema.js';
import { seedFor } from '../prng.js';
import type { DegradedInstruction } from '../types.js';
import { pCon } from './p-con.js';
import { pInt } from './p-int.js';
import { pMin } from './p-min.js';
import { pRam } from './p-ram.js';

export type Operator = (task: Task, seed: number) => DegradedInstruction;

export const OPERATORS: Record<Persona, Operator> = { 'P-MIN': pMin, 'P-RAM': pRam, 'P-INT': pInt, 'P-CON': pCon };

/** The offline degradation of one task for one persona; the run seed is mixed with task and persona. */
export function degradeOffline(task: Task, persona: Persona, seed: number): DegradedInstruction {
  return OPERATORS[persona](task, seedFor(seed, task.id, persona));
}
