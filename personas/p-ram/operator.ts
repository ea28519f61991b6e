import { z } from 'zod';
import type { Task } from '../../slots/schema.js';
import { operatorData } from '../definitions.js';
import { mulberry32, pick, shuffle } from '../../stats/prng.js';
import { lowerFirst } from '../text.js';
import type { DegradedInstruction } from '../types.js';
import { align, fill, inTaskOrder, pickOrdered, slotsIn } from '../operator-text.js';

/**
 * P-RAM (Relation): every gold sentence survives, in order, buried between seeded off-topic remarks; one
 * or two requirement sentences are said so hesitantly that they count as blurred.
 */
const Data = z.object({
  chatter: z.array(z.string().min(1)).min(3),
  hedges: z.array(z.string().includes('{sentence}')).min(1),
  openers: z.array(z.string()).min(1),
  closers: z.array(z.string()).min(1),
});

export function pRam(task: Task, seed: number): DegradedInstruction {
  const data = operatorData('P-RAM', Data);
  const rng = mulberry32(seed);
  const a = align(task);
  const positives = task.slots.filter((s) => s.assertionType === 'POSITIVE' && a.sentenceOf.has(s.id));
  const hedgeCount = Math.max(1, Math.round(task.slots.length / 5));
  const hedgedSentences = new Set(pickOrdered(rng, positives, hedgeCount).map((s) => a.sentenceOf.get(s.id)!));

  const chatter = shuffle(rng, data.chatter);
  const parts: string[] = [pick(rng, data.openers)];
  let inserted = 0;
  a.sentences.forEach((sentence, i) => {
    if (hedgedSentences.has(i)) {
      const bare = lowerFirst(sentence.replace(/[.!?]+$/, ''));
      parts.push(fill(pick(rng, data.hedges), { sentence: bare }));
    } else parts.push(sentence);
    // At least every other sentence is followed by chatter, so no requirement is left standing in the open.
    if ((rng() < 0.7 || i % 2 === 1) && inserted < chatter.length) parts.push(chatter[inserted++]!);
  });
  if (inserted === 0) parts.push(chatter[0]!);
  parts.push(pick(rng, data.closers));

  const blurs = [...hedgedSentences].flatMap((i) => slotsIn(a, i, task.slots).map((s) => s.id));
  return { instruction: parts.join(' '), omits: [], blurs: inTaskOrder(task, blurs), contradicts: [] };
}
