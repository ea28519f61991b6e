import { z } from 'zod';
import type { Task } from '../../slots/schema.js';
import { operatorData } from '../definitions.js';
import { mulberry32, pick } from '../../stats/prng.js';
import { COLOURS, isStopword, NUMBER_WORDS, slotText, tokens } from '../text.js';
import type { DegradedInstruction } from '../types.js';
import { escapeRegExp, inTaskOrder } from '../operator-text.js';

/**
 * P-INT (Manner): concrete terms (colours, numbers, component names) become figurative, vague phrases.
 * A slot is blurred when one of its own concrete terms was replaced: its exact value can no longer be read
 * off the instruction. One regex pass does all replacements, so a phrase just inserted is never rewritten.
 */
const Data = z.object({
  colourAdjectives: z.array(z.string().min(1)).min(1),
  colourNouns: z.array(z.string().min(1)).min(1),
  numberPhrases: z.array(z.string().min(1)).min(1),
  components: z.record(z.string(), z.array(z.string().min(1)).min(1)),
});

// "one" and "single" are left alone: "one of the cards" is not a count worth blurring and reads badly vague.
const COUNT_WORDS = [...NUMBER_WORDS].filter((w) => !['one', 'single', 'zero'].includes(w));
// "Day 1", "Room 3": a number that is part of a name, not a quantity.
const LABEL_WORDS = ['Day', 'Week', 'Step', 'Level', 'Room', 'Chapter', 'Page', 'Part', 'Round', 'Version', 'Question', 'Track', 'Session', 'Phase'].join('|');
const SHADE = '(?:(?:dark|light|bright|pale|deep|soft)[ -])?';
// A word before a component is taken along ("contact form", "Send button") unless it is one of these,
// which belong to the sentence rather than to the component's name.
const KEEP_BEFORE = ['the', 'a', 'an', 'of', 'with', 'and', 'or', 'in', 'on', 'at', 'for', 'to', 'each', 'every', 'exactly', 'some', 'add', 'show', 'include', 'display', 'have', 'has', 'build', 'create', 'make', 'use', 'put', 'want', 'need', 'below', 'above', 'under', 'its', 'their', 'our', 'my', 'your', 'this', 'that', 'no', 'any', 'should', 'must', 'will'];

export function pInt(task: Task, seed: number): DegradedInstruction {
  const data = operatorData('P-INT', Data);
  const rng = mulberry32(seed);
  const components = Object.keys(data.components).sort((x, y) => y.length - x.length);
  const colour = [...COLOURS].sort((x, y) => y.length - x.length).map(escapeRegExp).join('|');
  const pattern = new RegExp(
    [
      `(?<component>(?:\\b(?!(?:${KEEP_BEFORE.join('|')}|${COUNT_WORDS.join('|')}|${colour})\\b)[A-Za-z]+ )?\\b(?<name>${components.map(escapeRegExp).join('|')})\\b)`,
      `(?<colour>\\b${SHADE}(?:${colour})(?:[ -](?:${colour}))?\\b|#[0-9a-fA-F]{3,8}\\b)`,
      // Times (09:30), prices ($12.50) and compounds (two-day) keep their numbers: vague there reads as nonsense.
      `(?<number>(?:\\b(?:exactly|precisely|only|just) )?(?<![-:$.\\d])(?<!\\b(?:${LABEL_WORDS}) )\\b(?:\\d+(?:\\.\\d+)?|${COUNT_WORDS.join('|')})\\b(?![-:.]?\\d|-))`,
    ].join('|'),
    'gi',
  );

  const replaced = new Set<string>();
  const vague = (segment: string) => segment.replace(pattern, (match: string, ...rest: unknown[]) => {
    const groups = rest[rest.length - 1] as Record<string, string | undefined>;
    const whole = rest[rest.length - 2] as string;
    const offset = rest[rest.length - 3] as number;
    if (groups.component) {
      const key = groups.name!.toLowerCase();
      replaced.add(key);
      return pick(rng, data.components[key]!);
    }
    if (groups.colour) {
      for (const t of tokens(match)) replaced.add(t);
      // Before a noun ("navy background") an adjective reads right; elsewhere ("in white.") a noun phrase.
      const next = /^ ([A-Za-z]+)/.exec(whole.slice(offset + match.length));
      const beforeNoun = next !== null && !isStopword(next[1]!.toLowerCase());
      return pick(rng, beforeNoun ? data.colourAdjectives : data.colourNouns);
    }
    for (const t of tokens(match)) replaced.add(t);
    return pick(rng, data.numberPhrases);
  });
  // Quoted text is an exact label ("Day 1", "Add expense"): rewriting inside it would garble, not blur.
  const instruction = task.goldInstruction
    .split(/("[^"]*"|“[^”]*”)/)
    .map((part, i) => (i % 2 === 1 ? part : vague(part)))
    .join('');

  const blurs = task.slots
    .filter((slot) => {
      const text = slotText(slot).toLowerCase();
      const own = new Set(tokens(text));
      return [...replaced].some((term) => (term.includes(' ') ? text.includes(term) : own.has(term)));
    })
    .map((s) => s.id);
  return { instruction, omits: [], blurs: inTaskOrder(task, blurs), contradicts: [] };
}
