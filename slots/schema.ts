import { z } from 'zod';
import { AssertionTypeSchema, type Difficulty, type Persona } from '../protocol/enums.js';
import { ProbeSchema } from './probe-schema.js';

export { AssertionTypeSchema, DIFFICULTIES, DifficultySchema, PERSONAS, PersonaSchema, type AssertionType, type Difficulty, type Persona } from '../protocol/enums.js';

export const CTechSchema = z.union([z.literal(1), z.literal(2), z.literal(3)]);
export type CTech = z.infer<typeof CTechSchema>;

/** One atomic constraint of a task, as loaders hand it over (weight not yet computed). */
export const SlotSchema = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9_.-]+$/, 'slot ids use letters, digits, _ . -'),
    task: z.string().min(1),
    expectedResult: z.string().min(1),
    targetComponent: z.string().min(1),
    assertionType: AssertionTypeSchema,
    cTech: CTechSchema,
    probe: ProbeSchema.optional(),
    /** The weight a dataset file states, kept only to compare against the computed one. */
    storedWeight: z.number().optional(),
  })
  .strict();
export type Slot = z.infer<typeof SlotSchema>;

/** Which slots one persona's instruction leaves out, blurs or contradicts: what a good question should hit. */
export const DegradationSchema = z
  .object({
    omits: z.array(z.string()).default([]),
    blurs: z.array(z.string()).default([]),
    contradicts: z.array(z.string()).default([]),
  })
  .strict();
export type Degradation = z.infer<typeof DegradationSchema>;

/** The slots a case's persona left out, blurred or contradicted; null when the dataset does not record it. */
export function degradedSlotIds(c: Case): string[] | null {
  const d = c.task.personas[c.persona]?.degradation;
  return d ? [...new Set([...d.omits, ...d.blurs, ...d.contradicts])] : null;
}

export interface Task {
  id: string;
  title: string;
  category: string;
  goldInstruction: string;
  slots: Slot[];
  storedDifficulty?: Difficulty;
  /** Absolute folder of a site that satisfies every POSITIVE slot (built-in tasks only). */
  referenceSite?: string;
  personas: Partial<Record<Persona, { instruction: string; degradation?: Degradation }>>;
  /** Where the task came from, for error messages: "file:line". */
  source: string;
}

/** A slot with its computed weight: what judges and reporters see. */
export interface WeightedSlot extends Slot {
  weight: number;
}

/** One benchmark case: a task seen through one persona. */
export interface Case {
  id: string;
  taskId: string;
  persona: Persona;
  instruction: string;
  difficulty: Difficulty;
  difficultySource: 'stored' | 'computed';
  slots: WeightedSlot[];
  task: Task;
}

export interface Dataset {
  name: string;
  source: string;
  tasks: Task[];
  cases: Case[];
}
