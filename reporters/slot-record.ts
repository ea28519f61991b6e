import { z } from 'zod';
import { EpisodeAnnotationSchema, SlotAnnotationSchema, UsageEntrySchema, VisualAnnotationSchema } from '../protocol/annotations.js';
import { SlotStatusSchema } from '../protocol/enums.js';

/**
 * One slot test's outcome, as the reporter gathered it from the test's annotations. Pure data: no
 * Playwright types. A schema rather than an interface because a run keeps its records in its run folder
 * (reporters/run-records.ts) and `iwb report` reads them back to score the run again.
 */
export const SlotRecordSchema = SlotAnnotationSchema.extend({
  status: SlotStatusSchema,
  evidence: z.string(),
  /** Repeat index under `--repeat-each`; 0 otherwise. */
  trial: z.number().optional(),
  injection: z.boolean().optional(),
  visual: VisualAnnotationSchema.optional(),
  episode: EpisodeAnnotationSchema.optional(),
  /** Tokens the judge model spent on this verdict. */
  judgeUsage: UsageEntrySchema.optional(),
  /** The judge that gave the verdict (probe, llm-som:<model>, harness). */
  judge: z.string().optional(),
  /** The verdict came from the cache or another slot's session: its error, if any, is counted where it happened. */
  cachedVerdict: z.boolean().optional(),
  /** The judge's session ended without a verdict for this slot. */
  unmentioned: z.boolean().optional(),
});
export type SlotRecord = z.infer<typeof SlotRecordSchema>;
