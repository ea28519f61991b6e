import { z } from 'zod';
import type { Slot, Task } from '../../slots/schema.js';
import { operatorData } from '../definitions.js';
import { mulberry32, pick, type Rng } from '../../stats/prng.js';
import { concreteFacts, endSentence, isColour, slotText, tokens } from '../text.js';
import type { DegradedInstruction } from '../types.js';
import { align, escapeRegExp, fill, inTaskOrder, slotsIn, type Alignment } from '../operator-text.js';

/**
 * P-CON (Quality): exactly one slot is stated wrongly. A swapped colour or a changed number is preferred,
 * because it contradicts one fact cleanly; a negated feature is the fallback. Everything else is verbatim.
 */
const Data = z.object({
  colourSwaps: z.record(z.string(), z.string()),
  fallbackColour: z.string().min(1),
  negatePositive: z.array(z.string().includes('{component}')).min(1),
  negateNegative: z.array(z.string().includes('{component}')).min(1),
});
type ConData = z.infer<typeof Data>;

const WORD_NUMBERS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];

interface Edit {
  slot: Slot;
  kind: 'colour' | 'number' | 'negation';
  term?: string;
}

function candidates(task: Task, a: Alignment): Edit[][] {
  const colour: Edit[] = [];
  const number: Edit[] = [];
  const other: Edit[] = [];
  for (const slot of task.slots) {
    const i = a.sentenceOf.get(slot.id);
    if (i === undefined) continue;
    const said = new Set(tokens(a.sentences[i]!));
    const facts = concreteFacts(slotText(slot));
    const c = facts.colours.find((t) => said.has(t));
    const n = facts.numbers.find((t) => said.has(t) && (/^\d+$/.test(t) || WORD_NUMBERS.includes(t)));
    if (c && slot.assertionType === 'POSITIVE') colour.push({ slot, kind: 'colour', term: c });
    else if (n && slot.assertionType === 'POSITIVE') number.push({ slot, kind: 'number', term: n });
    else other.push({ slot, kind: 'negation' });
  }
  return [colour, number, other];
}

function withArticle(component: string, definite: boolean): string {
  const c = component.trim().toLowerCase();
  if (definite) return `the ${c}`;
  return /^[aeiou]/.test(c) ? `an ${c}` : `a ${c}`;
}

function applyEdit(sentence: string, edit: Edit, data: ConData, rng: Rng): string {
  const term = edit.term!;
  const re = new RegExp(`(?<![\\w#])${escapeRegExp(term)}(?!\\w)`, 'i');
  if (edit.kind === 'colour') {
    const swap = isColour(term) && !term.startsWith('#') ? (data.colourSwaps[term] ?? data.fallbackColour) : data.fallbackColour;
    return sentence.replace(re, swap);
  }
  const asWord = WORD_NUMBERS.indexOf(term);
  const changed = asWord >= 0 ? (WORD_NUMBERS[asWord + 2] ?? String(asWord + 2)) : String(Number(term) + 2 + Math.floor(rng() * 2));
  return sentence.replace(re, changed);
}

export function pCon(task: Task, seed: number): DegradedInstruction {
  const data = operatorData('P-CON', Data);
  const rng = mulberry32(seed);
  const a = align(task);
  const tier = candidates(task, a).find((t) => t.length > 0);
  const sents = [...a.sentences];
  const omits: string[] = [];
  let edit: Edit;
  if (!tier) {
    // The gold text states no slot clearly: contradict a seeded slot in a sentence of its own.
    edit = { slot: pick(rng, task.slots), kind: 'negation' };
  } else edit = pick(rng, tier);

  const index = a.sentenceOf.get(edit.slot.id);
  if (edit.kind === 'negation') {
    const positive = edit.slot.assertionType === 'POSITIVE';
    const template = pick(rng, positive ? data.negatePositive : data.negateNegative);
    const line = endSentence(fill(template, { component: withArticle(edit.slot.targetComponent, positive) }));
    if (index === undefined) sents.push(line);
    else {
      // Other slots stated in the replaced sentence are gone with it: they are omitted, not contradicted.
      for (const s of slotsIn(a, index, task.slots)) if (s.id !== edit.slot.id) omits.push(s.id);
      sents[index] = line;
    }
  } else sents[index!] = applyEdit(sents[index!]!, edit, data, rng);

  return { instruction: sents.join(' '), omits: inTaskOrder(task, omits), blurs: [], contradicts: [edit.slot.id] };
}
