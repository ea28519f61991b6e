import { z } from 'zod';

/**
 * What the judge model may answer, one action or a verdict per turn. The schemas are built for OpenAI
 * structured outputs: an object at the root, every field required (nullable where optional), and the
 * choice as a discriminated union on `kind`.
 */

const element = z.number().int().min(1).describe('the number of a labelled element');

export const ActionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('click'), element }),
  z.object({ kind: z.literal('type'), element, text: z.string().max(500) }),
  z.object({ kind: z.literal('select'), element, option: z.string().describe('visible text or value of the option') }),
  z.object({ kind: z.literal('press'), key: z.string().max(40).describe('a key name such as Enter, Escape, Tab, ArrowDown') }),
  z.object({ kind: z.literal('scroll'), direction: z.enum(['up', 'down']) }),
  z.object({ kind: z.literal('wait') }),
  z.object({ kind: z.literal('back') }),
  z.object({ kind: z.literal('goto'), path: z.string().max(300).describe('a path on the site under test, such as /about.html') }),
]);
export type JudgeAction = z.infer<typeof ActionSchema>;

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

/** One line for a step title and the history the model sees: only what the judge itself chose. */
export function describeAction(a: JudgeAction): string {
  switch (a.kind) {
    case 'click': return `click [${a.element}]`;
    case 'type': return `type [${a.element}] ${JSON.stringify(a.text)}`;
    case 'select': return `select [${a.element}] ${JSON.stringify(a.option)}`;
    case 'press': return `press ${a.key}`;
    case 'scroll': return `scroll ${a.direction}`;
    case 'wait': return 'wait';
    case 'back': return 'back';
    case 'goto': return `goto ${a.path}`;
  }
}
