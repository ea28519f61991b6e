import { z } from 'zod';
import { UsageEntrySchema } from '../protocol/annotations.js';
import { AssertionTypeSchema, DifficultySchema, EpisodeStatusSchema, PersonaSchema, SlotStatusSchema } from '../protocol/enums.js';

const rate = z.number().nullable();

/** One case (and trial) as report.json keeps it: every per-case figure and every slot's status. */
export const CaseResultSchema = z.object({
  id: z.string(),
  taskId: z.string(),
  persona: PersonaSchema,
  difficulty: DifficultySchema,
  agent: z.string(),
  /** 0 for the first run of a case; 1.. under `--repeat-each`. */
  trial: z.number().int().min(0),
  tcr: rate,
  tcrRaw: rate,
  tcrUniform: rate,
  tcrCTech: rate,
  hallucinated: z.boolean().nullable(),
  sr: z.boolean().nullable(),
  chr: rate,
  chrDegraded: rate,
  chrLlm: rate,
  ias: rate,
  vci: rate,
  /** The step counts behind VCI, so it can also be pooled over cases (the paper's reading). */
  verifySteps: z.number().nullable().default(null),
  implementSteps: z.number().nullable().default(null),
  /** Steps that wrote files alongside another action; the paper's VCI counts them twice among code turns. 0 for older episodes. */
  codeAlongsideSteps: z.number().nullable().default(null),
  questionBeforeCode: z.boolean().nullable(),
  blind: z.boolean().nullable(),
  linesOfCode: z.number().nullable(),
  /** The paper's LOC (every line of every final file but node_modules, dist, .next, package-lock.json); null for episodes recorded before it. */
  locPaper: z.number().nullable().default(null),
  steps: z.number().nullable(),
  questions: z.number().nullable(),
  submitted: z.boolean().nullable(),
  episodeStatus: z.union([EpisodeStatusSchema, z.literal('unknown')]),
  episodeCached: z.boolean().nullable(),
  injectionFlagged: z.boolean(),
  visualBug: z.boolean().nullable(),
  visualFindings: z.array(z.string()),
  /** The judge model's 1-5 scores of the final page; null without a judge model. */
  visualScores: z.object({ layout: z.number(), creativeAlignment: z.number(), overall: z.number() }).nullable().default(null),
  usage: z.array(UsageEntrySchema),
  slots: z.array(
    z.object({
      id: z.string(),
      status: SlotStatusSchema,
      weight: z.number(),
      cTech: z.number(),
      assertionType: AssertionTypeSchema,
      /** The judge's session ended without a verdict for the slot (its status is the profile's rule for that). */
      unmentioned: z.boolean().optional(),
    }),
  ),
});
export type CaseResult = z.infer<typeof CaseResultSchema>;
