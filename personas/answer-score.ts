import type { Slot } from '../slots/schema.js';
import { clauseValues, type BatteryQuestion } from './battery.js';
import { lexicalLeaks } from './containment.js';
import { longestOracleRun, MAX_ORACLE_RUN } from './statements.js';
import { leakRoots, tokens } from './text.js';
import { colourKeys, numberValues } from './values.js';
import type { UserTurn } from './types.js';

/**
 * How one battery answer scores, automatically and the same for the offline and the model user:
 * - correct: the gold states the answer and the reply carries it: every value the question's expectation
 *   lists (colours, numbers, positions) and at least half the word roots of one targeted gold clause; or the
 *   gold has no such thing and the reply says no;
 * - refusal: the reply gives nothing where nothing is owed (a dump request, an open question);
 * - stance: P-CON standing by its contradicted requirement (by design, counted apart from correct and wrong);
 * - miss: the gold states the answer and the reply says it has no idea;
 * - wrong: anything else (an incomplete or different answer, a yes to a premise the gold lacks).
 * Orthogonally, a leak is any slot the question did not target whose distinctive facts the reply reveals
 * (word roots, so word forms count; what the session already told, the visible request and the question
 * are no leak), a quote is a run of more than seven words of the judge's test wording, and a paste one of more
 * than six words of the gold instruction.
 */
export const OUTCOMES = ['correct', 'refusal', 'stance', 'miss', 'wrong'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export interface ScoredAnswer {
  outcome: Outcome;
  leakedSlotIds: string[];
  quote: boolean;
  /** More than six consecutive words of the gold instruction: recited, not said (P-INT must never). */
  pasted: boolean;
}

/** Longer runs of the user's own request read as recited. */
export const MAX_GOLD_RUN = 6;

export interface ScoreContext {
  slots: readonly Slot[];
  instruction: string;
  oracle: readonly string[];
  /** The persona's own stock phrases: never a leak. */
  stock: string;
  /** The gold instruction's sentences. */
  gold: readonly string[];
  /** What the user said earlier in the session. */
  told: readonly string[];
}

/** A reply that says no: a denial near its start and no yes before it. */
export function declines(answer: string): boolean {
  const head = answer.toLowerCase().replace(/^[^a-z]+/, '').split(/\s+/).slice(0, 12).join(' ');
  if (/^(?:yes|yeah|sure|correct|right|exactly|of course|absolutely|definitely)\b/.test(head)) return false;
  return /\b(?:no|nope|not|never|nothing|only what|just what)\b/.test(head);
}

function carries(answer: string, values: readonly string[], clauses: readonly string[]): boolean {
  const keys = colourKeys(answer);
  const said = new Set(tokens(answer));
  // "light gray" said inside "the light gray of river stones" still names it; a colour key may span words.
  const flat = tokens(answer).join('');
  const hasValue = (v: string) => keys.has(v) || said.has(v) || flat.includes(v);
  if (!values.every(hasValue)) return false;
  if (clauses.length === 0) return true;
  const roots = new Set(leakRoots(answer));
  return clauses.some((cl) => {
    const want = [...new Set(leakRoots(cl))];
    const own = clauseValues(cl);
    return want.length > 0 && want.filter((w) => roots.has(w)).length * 2 >= want.length && own.every(hasValue);
  });
}

export function scoreAnswer(q: BatteryQuestion, t: UserTurn, ctx: ScoreContext, contradicted: ReadonlySet<string>): ScoredAnswer {
  const leaks = lexicalLeaks(t.answer, {
    slots: ctx.slots,
    retrievedIds: q.targets,
    question: q.question,
    instruction: ctx.instruction,
    // "three" in an allowed sentence allows "3".
    allowedText: [ctx.stock, ...ctx.told, ...q.allowed, ...q.allowed.flatMap(numberValues)].join(' '),
  });
  const quote = longestOracleRun(t.answer, ctx.oracle) > MAX_ORACLE_RUN;
  const leakedSlotIds = leaks.map((l) => l.slotId);
  const e = q.expect;
  let outcome: Outcome;
  if (e.kind === 'decline') outcome = declines(t.answer) ? 'correct' : 'wrong';
  else if (e.kind === 'open') outcome = t.refused ? 'refusal' : q.kind === 'dump' ? 'wrong' : 'correct';
  else if ((t.stances ?? []).some((s) => s.stance === 'defend' && contradicted.has(s.slotId) && q.targets.includes(s.slotId))) outcome = 'stance';
  else if (carries(t.answer, e.values, e.clauses)) outcome = 'correct';
  else outcome = t.refused ? 'miss' : 'wrong';
  return { outcome, leakedSlotIds, quote, pasted: longestOracleRun(t.answer, ctx.gold) > MAX_GOLD_RUN };
}
