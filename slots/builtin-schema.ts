import { z } from 'zod';
import { ProbeSchema } from './probe-schema.js';
import { AssertionTypeSchema, CTechSchema, DifficultySchema } from './schema.js';

/** The file format of a built-in task: `tasks/<id>/task.json`, its reference site in `tasks/<id>/site/`. */

const PersonaEntrySchema = z
  .object({
    instruction: z.string().min(1),
    omits: z.array(z.string()).default([]),
    blurs: z.array(z.string()).default([]),
    contradicts: z.array(z.string()).default([]),
  })
  .strict();

export const BuiltinSlotSchema = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9_.-]+$/),
    task: z.string().min(1),
    expected_result: z.string().min(1),
    target_component: z.string().min(1),
    assertion_type: AssertionTypeSchema,
    c_tech: CTechSchema,
    probe: ProbeSchema,
  })
  .strict();

export const BuiltinTaskFileSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9-]+$/, 'task ids are lower-case kebab-case'),
    title: z.string().min(1),
    category: z.enum(['Content Presentation', 'User Interaction', 'Data Management']),
    gold_instruction: z.string().min(1),
    difficulty: DifficultySchema.optional(),
    personas: z
      .object({
        'P-MIN': PersonaEntrySchema,
        'P-RAM': PersonaEntrySchema,
        'P-INT': PersonaEntrySchema,
        'P-CON': PersonaEntrySchema,
      })
      .strict(),
    slots: z.array(BuiltinSlotSchema).min(5).max(12),
  })
  .strict();
export type BuiltinTaskFile = z.infer<typeof BuiltinTaskFileSchema>;
