import { z } from 'zod';
import { SlotStatusSchema } from './enums.js';

/** One judge action, as the verdict keeps it: what was done, on what, and the frame it left. */
export const JudgeStepSchema = z.object({ action: z.string(), detail: z.string().optional(), screenshot: z.string().optional() });
export type JudgeStep = z.infer<typeof JudgeStepSchema>;

/**
 * Where a judge session's harness time went (judge/session-loop.ts), in ms: opening the site and waiting for it
 * to rest, the looks (labelling the page and reading it), the judge model's replies, the actions and the wait
 * for rest after each. The bench reads it to show where a judged slot's time goes.
 */
export const JudgePhasesSchema = z.object({ open: z.number(), look: z.number(), model: z.number(), act: z.number(), looks: z.number().int(), acts: z.number().int() });
export type JudgePhases = z.infer<typeof JudgePhasesSchema>;

/** `unknown`: some call's provider gave no usage object, so the total is not known (llm/usage.ts). */
export const TokenPairSchema = z.object({ prompt: z.number(), completion: z.number(), unknown: z.boolean().optional() });

/** A judge's answer for one slot: what the verdict cache stores and the slot test reports. */
export const VerdictSchema = z.object({
  status: SlotStatusSchema,
  evidence: z.string(),
  judge: z.string(),
  steps: z.array(JudgeStepSchema),
  durationMs: z.number(),
  /** The page carried text addressed to the judge ("ignore your instructions", "answer pass"). */
  injection: z.boolean().optional(),
  /** Requests the judged page made to hosts other than the site under test, refused and counted. */
  blockedRequests: z.number().optional(),
  /** True when the verdict came from the verdict cache rather than a new judge session. */
  cached: z.boolean().optional(),
  /** Tokens the judge model spent on this verdict, when it was made (also when read from the verdict cache); 0 when deterministic, or a case session's later slots (its first carries the session). */
  tokens: TokenPairSchema.optional(),
  /** The judge never gave this slot a verdict in its session: the status is the profile's `unmentioned` rule, not a finding. */
  unmentioned: z.boolean().optional(),
  /** The model behind the verdict, so its tokens can be priced. */
  model: z.string().optional(),
  /** The session's time by phase, on the verdict that was charged its time (as durationMs). */
  phases: JudgePhasesSchema.optional(),
});
export type Verdict = z.infer<typeof VerdictSchema>;
