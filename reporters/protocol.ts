import { z } from 'zod';
import { DifficultySchema, PersonaSchema } from '../slots/schema.js';

/**
 * What a slot test tells the reporter, carried in test annotations because annotations (unlike
 * `project.use`) survive blob reports and `merge-reports`. The reporter validates them when it reads
 * them back, so a report is never built from a half-understood test.
 */
export const ANNOTATION = {
  slot: 'iwb.slot',
  verdict: 'iwb.verdict',
  episode: 'iwb.episode',
  visual: 'iwb.visual',
} as const;

export const SlotAnnotationSchema = z.object({
  caseId: z.string(),
  taskId: z.string(),
  persona: PersonaSchema,
  difficulty: DifficultySchema,
  slotId: z.string(),
  targetComponent: z.string(),
  assertionType: z.enum(['POSITIVE', 'NEGATIVE']),
  weight: z.number(),
  cTech: z.number(),
});
export type SlotAnnotation = z.infer<typeof SlotAnnotationSchema>;

export const VerdictAnnotationSchema = z.object({
  status: z.enum(['pass', 'fail', 'errored', 'unjudged']),
  judge: z.string(),
  evidence: z.string(),
  /** The page addressed the judge ("ignore your instructions..."): flagged on the case in the report. */
  injection: z.boolean().optional(),
  blockedRequests: z.number().optional(),
  cached: z.boolean().optional(),
  tokens: z.object({ prompt: z.number(), completion: z.number() }).optional(),
});
export type VerdictAnnotation = z.infer<typeof VerdictAnnotationSchema>;

export const EpisodeAnnotationSchema = z.object({
  agent: z.string(),
  status: z.enum(['submitted', 'step-cap', 'errored']),
  cached: z.boolean(),
  steps: z.number(),
  stepCap: z.number(),
  counts: z.object({ clarify: z.number(), implement: z.number(), verify: z.number(), submit: z.number(), invalid: z.number() }),
  questionBeforeCode: z.boolean(),
  linesOfCode: z.number(),
  tokens: z.object({ promptTokens: z.number(), completionTokens: z.number() }),
  durationMs: z.number(),
  error: z.string().optional(),
});
export type EpisodeAnnotation = z.infer<typeof EpisodeAnnotationSchema>;

/** The deterministic visual-bug check of the case's final page (and the judge model's 1-5 scores, if any). */
export const VisualAnnotationSchema = z.object({
  bug: z.boolean(),
  findings: z.array(z.string()),
  scores: z.object({ layout: z.number(), creativeAlignment: z.number(), overall: z.number() }).optional(),
});
export type VisualAnnotation = z.infer<typeof VisualAnnotationSchema>;
