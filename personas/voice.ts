import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Persona } from '../slots/schema.js';
import { personaDefinition, type AnswerStyle } from './definitions.js';
import { fill } from './operator-text.js';
import { pick, type Rng } from '../stats/prng.js';
import { capitalise, lowerFirst as lowerAll } from './text.js';

/** Lower-cases a first letter unless it is the pronoun "I". */
function lowerFirst(s: string): string {
  return /^I\b/.test(s) ? s : lowerAll(s);
}

/**
 * How a persona answers, one module per persona (personas/<id>/voice.ts) with its rules beside it:
 * voice.md for the contained user's model and paper.md for the paper-parity user. The offline speech and
 * the prompts state the same rule, so a run without a model behaves as the persona is defined too.
 */
export type FactMode = 'state' | 'defend' | 'concede' | 'exclude' | 'unstated' | 'reject';

export interface SpokenFact {
  slotId: string;
  mode: FactMode;
  /** The gold instruction's own words about the slot (its clause); empty for 'exclude' and 'unstated'. */
  statement: string;
  /** For 'defend': what the persona's instruction says instead (its retelling of the statement). */
  stance?: string;
  /** Said before in this conversation: the voice may say so, and must say the same thing. */
  repeated: boolean;
  /** What the site is for or holds (the request's opening sentences): said whole, never cut to its colours. */
  purpose?: boolean;
  /** For 'defend': the question challenged the requirement, so the user stands by it in so many words. */
  challenged?: boolean;
}

export interface Voice {
  persona: Persona;
  /** The offline answer; `rng` is seeded by the question's topic, so a repeated question gets the same words. */
  speak(facts: readonly SpokenFact[], rng: Rng): string;
  /** Words the offline speech adds of its own (images, chatter), which containment must not count as leaks. */
  stock?: string;
}

/** The stock phrases of a persona (personas/<id>/definition.json "answerStyle"). */
export function styleOf(persona: Persona): AnswerStyle {
  return personaDefinition(persona).answerStyle;
}

/** What every voice says when the user wrote nothing about the topic, or only wants what it asked for. */
export function noWish(style: AnswerStyle, rng: Rng): string {
  return pick(rng, style.nonAnswer);
}

const FOLDERS: Record<Persona, string> = { 'P-MIN': 'p-min', 'P-RAM': 'p-ram', 'P-INT': 'p-int', 'P-CON': 'p-con' };

/** A persona's rule text for a model: `voice` (contained user) or `paper` (paper-parity user). */
export function personaRule(persona: Persona, kind: 'voice' | 'paper'): string {
  const file = fileURLToPath(new URL(`./${FOLDERS[persona]}/${kind}.md`, import.meta.url));
  return readFileSync(file, 'utf8').trim();
}

/**
 * The usual shape of an offline answer: the persona's opener, one line per fact (what the user never wrote
 * about dropped, unless that is all there is), its closer. A voice supplies how a stated fact is said.
 */
export function assemble(style: AnswerStyle, rng: Rng, facts: readonly SpokenFact[], say: (f: SpokenFact) => string): string {
  const known = facts.filter((f) => f.mode !== 'unstated');
  if (known.length === 0) return noWish(style, rng);
  const lines = known.map((f) => {
    if (f.mode === 'exclude') return pick(rng, style.onlyAsked);
    if (f.mode === 'reject') return fill(pick(rng, style.rejectPremise), { claim: f.statement });
    return say(f);
  });
  const opener = known[0]!.mode === 'state' ? pick(rng, style.openers) : '';
  const body = lines.map((l, i) => (i === 0 ? l : `${style.factJoin}${lowerFirst(l)}`)).join('');
  // After a full stop (or no opener) the answer starts a sentence; after "so," or "Just:" it runs on.
  const startsSentence = opener === '' || /[.!?]\s*$/.test(opener);
  return `${opener}${startsSentence ? capitalise(body) : lowerFirst(body)}${pick(rng, style.closers)}`.trim();
}
