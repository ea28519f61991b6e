import type { Persona, Task } from '../slots/schema.js';
import type { DegradedInstruction } from './types.js';
import type { Voice } from './voice.js';

export type Operator = (task: Task, seed: number) => DegradedInstruction;

/** A rule a persona's degradation must keep, checked on the LLM operator's reply (and fed back when broken). */
export interface DegradationRule {
  field: 'omits' | 'blurs' | 'contradicts' | 'instruction';
  message: string;
  holds(v: DegradedInstruction): boolean;
}

/**
 * What a persona folder (personas/<id>/) exports as `persona`: its definition lives beside it
 * (definition.json: defect, maxim, operator prompt, answer style), with its offline operator, its voice
 * (voice.ts, voice.md, paper.md) and any rule special to it. The list of personas is the folder listing
 * (personas/registry.ts), so a persona's behaviour is edited in one folder.
 */
export interface PersonaModule {
  id: Persona;
  operator: Operator;
  voice: Voice;
  rules: readonly DegradationRule[];
}
