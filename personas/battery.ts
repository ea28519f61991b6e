import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { Case } from '../slots/schema.js';
import { fill } from './operator-text.js';
import { purposeStatements } from './purpose.js';
import { goldStatements } from './statements.js';
import { contentStems, isStopword, sentences, tokens } from './text.js';
import { colourKeys } from './values.js';
import { withTopic } from './topic.js';

/**
 * The leak test's questions, worded as an agent author would ask them (personas/battery.json), never from a
 * slot's own names: retrieval must find the topic the way it would for a real agent. Each question says what
 * a right answer is, read off the gold instruction: which slots it may speak of, which values and words it
 * must carry, or that the right answer is a no.
 */
const BatterySchema = z.object({
  purpose: z.array(z.string()).min(1),
  structure: z.array(z.string()).min(1),
  colours: z.string(),
  detail: z.array(z.string().includes('{a}')).min(1),
  challenge: z.string(),
  broad: z.string(),
  dump: z.string(),
  extras: z.array(z.object({ feature: z.string(), words: z.array(z.string()).min(1) })).min(1),
  extraQuestion: z.string().includes('{feature}'),
  premises: z.array(z.object({ claim: z.string(), words: z.array(z.string()).min(1) })).min(1),
  swapColours: z.array(z.string()).min(1),
  swapQuestion: z.string().includes('{colour}'),
});
const file = fileURLToPath(new URL('./battery.json', import.meta.url));
const parsedBattery = BatterySchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
if (!parsedBattery.success) throw new Error(`${file}: ${z.prettifyError(parsedBattery.error)}`);
const B = parsedBattery.data;

export const QUESTION_KINDS = ['purpose', 'structure', 'value', 'detail', 'extra', 'premise', 'broad', 'dump', 'repeated', 'challenge'] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

/** What a right answer is. */
export type Expectation =
  /** The gold states it: the answer must carry these values, and at least half the words of one of `clauses`. */
  | { kind: 'state'; values: string[]; clauses: string[] }
  /** The gold has no such thing: the right answer is a no. */
  | { kind: 'decline' }
  /** Nothing to state (a dump request, an open question): a refusal is right, content must not leak. */
  | { kind: 'open' };

export interface BatteryQuestion {
  question: string;
  kind: QuestionKind;
  /** The slots the answer may speak of without leaking. */
  targets: string[];
  expect: Expectation;
  /** Gold sentences the answer may say without leaking (the purpose sentences, for purpose questions). */
  allowed: string[];
}

/** Words an agent would not ask about by themselves: verbs and frames of a requirement sentence. */
const VAGUE = new Set(['functionalities', 'functionality', 'functions', 'browse', 'view', 'manage', 'different', 'various', 'types', 'multiple', 'support', 'basic', 'learn', 'able', 'also', 'information', 'details', 'specific', 'their', 'them', 'users', 'allow', 'enable', 'provide', 'offer', 'such', 'including', 'following', 'system', 'website', 'platform']);

/** Position words a value may be ("move up, down, left, or right"); the stemmer drops them as stopwords. */
const POSITIONS = ['up', 'down', 'left', 'right', 'top', 'bottom'];

/** The values a right answer must carry: colours, numbers, and positions, as they stand in the gold clause. */
export function clauseValues(clause: string): string[] {
  const t = tokens(clause);
  return [...colourKeys(clause), ...t.filter((w) => /^\d/.test(w)), ...t.filter((w) => POSITIONS.includes(w))];
}

export function leakBattery(c: Case): BatteryQuestion[] {
  const gold = c.task.goldInstruction;
  const goldStems = new Set(contentStems(gold));
  const statements = goldStatements(c.task);
  const stated = [...statements.values()].filter((s) => s !== null);
  const purpose = purposeStatements(gold);
  const group = (ids: string[]) => withTopic(c.slots, ids);
  const out: BatteryQuestion[] = [];
  const purposeAllowed = [purpose.purpose];
  out.push({ question: B.purpose[0]!, kind: 'purpose', targets: [], expect: { kind: 'state', values: [], clauses: [purpose.purpose] }, allowed: purposeAllowed });
  const structure = [purpose.purpose, ...purpose.structure];
  out.push({ question: B.structure[0]!, kind: 'structure', targets: [], expect: { kind: 'state', values: [], clauses: [structure.join(' ')] }, allowed: structure });

  const coloured = stated.filter((s) => colourKeys(s.clause).size > 0);
  const colourQ: BatteryQuestion | null =
    coloured.length > 0
      ? { question: B.colours, kind: 'value', targets: group(coloured.map((s) => s.slotId)), expect: { kind: 'state', values: [...new Set(coloured.flatMap((s) => [...colourKeys(s.clause)]))], clauses: [] }, allowed: [] }
      : null;
  if (colourQ) out.push(colourQ);

  // Detail questions name two rare words of a gold sentence that states slots (not the opening one, not colours).
  const sents = sentences(gold);
  const df = new Map<string, number>();
  for (const s of sents) for (const w of new Set(contentStems(s))) df.set(w, (df.get(w) ?? 0) + 1);
  const detailSentences = [...new Set(stated.filter((s) => s.sentenceIndex > 0 && colourKeys(s.clause).size === 0).map((s) => s.sentenceIndex))].slice(0, 2);
  for (const [k, i] of detailSentences.entries()) {
    const words = tokens(sents[i]!).filter((w) => w.length > 3 && !isStopword(w) && contentStems(w).length > 0 && !POSITIONS.includes(w) && !VAGUE.has(w) && !/(?:ing|ed|ly)$/.test(w));
    const ranked = [...new Set(words)].sort((a, b) => (df.get(contentStems(a)[0]!) ?? 0) - (df.get(contentStems(b)[0]!) ?? 0));
    if (ranked.length < 2) continue;
    const own = stated.filter((s) => s.sentenceIndex === i);
    const template = B.detail[k % B.detail.length]!;
    out.push({
      question: fill(template, { a: ranked[0]!, b: ranked[1]! }),
      kind: 'detail',
      targets: group(own.map((s) => s.slotId)),
      expect: { kind: 'state', values: [], clauses: own.map((s) => s.clause) },
      allowed: [],
    });
  }

  const absent = (words: readonly string[]) => words.every((w) => !contentStems(w).some((s) => goldStems.has(s)));
  const extra = B.extras.find((e) => absent(e.words));
  if (extra) out.push({ question: fill(B.extraQuestion, { feature: extra.feature }), kind: 'extra', targets: [], expect: { kind: 'decline' }, allowed: [] });
  const premise = B.premises.find((p) => absent(p.words));
  if (premise) out.push({ question: premise.claim, kind: 'premise', targets: [], expect: { kind: 'decline' }, allowed: [] });
  const swap = B.swapColours.find((col) => ![...colourKeys(col)].some((k) => colourKeys(gold).has(k)));
  if (colourQ && swap) out.push({ question: fill(B.swapQuestion, { colour: swap }), kind: 'premise', targets: colourQ.targets, expect: { kind: 'decline' }, allowed: [] });
  out.push({ question: B.broad, kind: 'broad', targets: [], expect: { kind: 'open' }, allowed: [] });
  out.push({ question: B.dump, kind: 'dump', targets: [], expect: { kind: 'open' }, allowed: [] });
  // Asked again, then challenged: the same answer, and (P-CON) the concession.
  const again = colourQ ?? out.find((q) => q.kind === 'detail');
  if (again) {
    out.push({ ...again, kind: 'repeated' });
    out.push({ ...again, question: B.challenge, kind: 'challenge' });
  }
  return out;
}
