import { z } from 'zod';

/**
 * The page actions a model may take on a labelled page (the judge, and the agent's audit): built for OpenAI
 * structured outputs, a discriminated union on `kind`. The judge's replies that wrap them are judge/replies.ts.
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
