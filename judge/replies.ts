import { z } from 'zod';
import { ActionSchema } from '../vision/actions.js';

/**
 * What the judge model may answer, one action or a verdict per turn. The schemas are built for OpenAI
 * structured outputs: an object at the root, every field required (nullable where optional), and the
 * choice as a discriminated union on `kind`.
 */

const status = z.enum(['pass', 'fail']);
const evidence = z.string().min(1).max(1500).describe('what you saw that decides it');

export const SlotVerdictSchema = z.object({ kind: z.literal('verdict'), status, evidence });
export const CaseVerdictsSchema = z.object({
  kind: z.literal('verdicts'),
  verdicts: z.array(z.object({ slot: z.string(), status, evidence })),
});

const thought = z.string().max(1500).describe('brief reasoning: what you see and why this step');

/** Per slot: act or decide. */
export const SlotReplySchema = z.object({ thought, action: z.discriminatedUnion('kind', [...ActionSchema.options, SlotVerdictSchema]) });
/** Per slot, when the step cap is reached: decide now. */
export const SlotForcedSchema = z.object({ thought, action: SlotVerdictSchema });
/** Per case: act, or give every slot its verdict at once. */
export const CaseReplySchema = z.object({ thought, action: z.discriminatedUnion('kind', [...ActionSchema.options, CaseVerdictsSchema]) });
export const CaseForcedSchema = z.object({ thought, action: CaseVerdictsSchema });

/**
 * The paper-shaped case session (judge/paper-session.ts): every turn may settle any slots, by id, beside
 * its one action; `done` ends the session. The last turn only settles.
 */
const slotVerdicts = z.array(z.object({ slot: z.string().describe('a slot id from the list'), status, evidence })).describe('verdicts reached this turn; may be empty');
export const PaperTurnSchema = z.object({ thought, verdicts: slotVerdicts, action: z.discriminatedUnion('kind', [...ActionSchema.options, z.object({ kind: z.literal('done') })]) });
export const PaperFinalSchema = z.object({ thought, verdicts: slotVerdicts });
export type PaperTurn = z.infer<typeof PaperTurnSchema>;
export type PaperVerdict = PaperTurn['verdicts'][number];

export type SlotReply = z.infer<typeof SlotReplySchema>;
export type CaseReply = z.infer<typeof CaseReplySchema>;
export type Decision = z.infer<typeof SlotVerdictSchema> | z.infer<typeof CaseVerdictsSchema>;
