import type { Slot, Task } from '../slots/schema.js';
import { colourKeys, numberValues } from './values.js';
import { concreteFacts, contentStems, isStopword, leakRoots, sentences, slotText, tokens } from './text.js';

/**
 * What the user knows about a slot: the gold instruction's own words about it, never the slot's test
 * wording (task / expected_result), which is the judge's script. The slot only decides WHICH of the user's
 * sentences is meant; the answer is built from that sentence, cut to the clauses about the slot.
 */
export interface Statement {
  slotId: string;
  /** Index of the gold sentence that states the slot. */
  sentenceIndex: number;
  sentence: string;
  /** The part of the sentence about this slot (the whole sentence unless it also states other slots). */
  clause: string;
}

/** Stem weights over a task's slots: a stem every slot shares ("policy") says little about which one is meant. */
export type StemWeights = Map<string, number>;

export function stemWeights(slots: readonly Slot[]): StemWeights {
  const df = new Map<string, number>();
  for (const s of slots) for (const w of new Set(contentStems(slotText(s)))) df.set(w, (df.get(w) ?? 0) + 1);
  const out: StemWeights = new Map();
  for (const [w, n] of df) out.set(w, Math.log(1 + slots.length / n));
  return out;
}

/**
 * How strongly a text speaks about a slot: shared content stems weighted by rarity among the task's slots
 * (the slot's component words count double: they name the topic), plus a bonus per shared colour or number.
 */
export function slotScore(slot: Slot, text: string, weights?: StemWeights): number {
  const component = new Set(contentStems(slot.targetComponent));
  const want = new Set(contentStems(slotText(slot)));
  const have = new Set(contentStems(text));
  let score = 0;
  for (const w of want) if (have.has(w)) score += (weights?.get(w) ?? 1) * (component.has(w) ? 2 : 1);
  const facts = concreteFacts(slotText(slot));
  const keys = colourKeys(text);
  const said = new Set(tokens(text));
  for (const c of colourKeys(slotText(slot))) if (keys.has(c)) score += 3;
  for (const n of facts.numbers) if (said.has(n)) score += 3;
  return score;
}

/** Below this a sentence is about something else: one common shared word is chance, a rare one or a value is a topic. */
export const MIN_STATEMENT_SCORE = 1.5;

const MODAL = /^(.*?\b(?:should|must|can|will|need to|needs to|has to|have to|is to)\b(?:\s+(?:also|be able to|allow users to|let users))*)\s/i;

/** Cuts a sentence into comma or semicolon clauses, keeping the subject ("Users should") for later ones. */
function clauses(sentence: string): string[] {
  const raw = sentence
    .replace(/[.!?]+$/, '')
    .split(/\s*[;,]\s*/)
    .filter((c) => c.length > 0);
  // "demographic, economic, and crime data" is one list, not three clauses: a piece of three words or fewer
  // joins the next one.
  const out: string[] = [];
  let carry = '';
  for (const piece of raw) {
    const joined = carry ? `${carry}, ${piece}` : piece;
    if (piece.split(/\s+/).length <= 3) carry = joined;
    else {
      out.push(joined);
      carry = '';
    }
  }
  if (carry) out.push(carry);
  return out.map((c, i) => (i === 0 ? c : c.replace(/^(and|or|then|as well as)\s+/i, '')).trim());
}

function clauseFor(slot: Slot, sentence: string, others: readonly Slot[], weights: StemWeights): string {
  const parts = clauses(sentence);
  if (parts.length <= 1) return sentence;
  const own = parts.map((p) => slotScore(slot, p, weights));
  const foreign = parts.map((p) => Math.max(0, ...others.map((o) => slotScore(o, p, weights))));
  // Keep the clauses about this slot, and the opening one (it carries the subject) unless it is another slot's.
  const keep = parts.filter((_, i) => own[i]! > 0 || (i === 0 && foreign[0]! < MIN_STATEMENT_SCORE));
  if (keep.length === parts.length || keep.length === 0) return sentence;
  const subject = parts[0]!.match(MODAL)?.[1];
  const body = keep.map((k, i) => (i === 0 && k !== parts[0] && subject && !MODAL.test(k) ? `${subject} ${k}` : k));
  const text = body.length > 1 ? `${body.slice(0, -1).join(', ')} and ${body.at(-1)}` : body[0]!;
  return `${text}.`;
}

/** Each slot's statement in the gold instruction, or null when the gold instruction never states it. */
export function goldStatements(task: Pick<Task, 'goldInstruction' | 'slots'>): Map<string, Statement | null> {
  const sents = sentences(task.goldInstruction);
  const out = new Map<string, Statement | null>();
  const weights = stemWeights(task.slots);
  for (const slot of task.slots) {
    // "Nothing unrequested" is what the user wants by default, not something it wrote down.
    if (isUnrequestedSlot(slot)) {
      out.set(slot.id, null);
      continue;
    }
    let best = -1;
    let bestScore = 0;
    sents.forEach((s, i) => {
      const score = slotScore(slot, s, weights);
      if (score > bestScore) {
        best = i;
        bestScore = score;
      }
    });
    if (best < 0 || bestScore < MIN_STATEMENT_SCORE) {
      out.set(slot.id, null);
      continue;
    }
    const sentence = sents[best]!;
    const others = task.slots.filter((o) => o.id !== slot.id);
    out.set(slot.id, { slotId: slot.id, sentenceIndex: best, sentence, clause: clauseFor(slot, sentence, others, weights) });
  }
  return out;
}

/** The generic NEGATIVE slot every public task has ("Unrequested_Element_Feature"). */
export function isUnrequestedSlot(slot: Slot): boolean {
  return slot.assertionType === 'NEGATIVE' && /unrequested|not requested|extra/i.test(slot.targetComponent);
}

/** Lower-case words for n-gram comparison: punctuation and quotes do not break a copied run. */
function words(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9#]+(?:'[a-z]+)?/g) ?? [];
}

/** The oracle text of a case: what the judge tests, which no answer may repeat. */
export function oracleText(slots: readonly Slot[]): string[] {
  return slots.flatMap((s) => [s.task, s.expectedResult]);
}

/** The longest run of consecutive words an answer shares with any oracle text. */
export function longestOracleRun(answer: string, oracle: readonly string[]): number {
  const a = words(answer);
  let best = 0;
  for (const text of oracle) {
    const o = words(text);
    // Longest common substring over words, O(|a| |o|): both are a few dozen words.
    let prev = new Array<number>(o.length + 1).fill(0);
    for (let i = 1; i <= a.length; i++) {
      const cur = new Array<number>(o.length + 1).fill(0);
      for (let j = 1; j <= o.length; j++) {
        if (a[i - 1] === o[j - 1]) {
          cur[j] = prev[j - 1]! + 1;
          if (cur[j]! > best) best = cur[j]!;
        }
      }
      prev = cur;
    }
  }
  return best;
}

/** The issue's bar: an answer may share at most seven consecutive words with the oracle text. */
export const MAX_ORACLE_RUN = 7;

/**
 * Where a gold sentence happens to copy the checklist (5 of 453 public sentences do), drop the small words
 * inside it so no long run survives; the content words, and so the fact, stay.
 */
export function breakOracleRuns(answer: string, oracle: readonly string[]): string {
  if (longestOracleRun(answer, oracle) <= MAX_ORACLE_RUN) return answer;
  const thinned = answer
    .split(/\s+/)
    .filter((w) => !isStopword(w.toLowerCase().replace(/[^a-z']/g, '')))
    .join(' ');
  return thinned;
}

/**
 * A statement cut down to the pieces that do not name a hidden slot's terms: "browse and analyze policies and
 * be able to filter and sort" minus "sort" keeps "browse and analyze policies" and "be able to filter". Used
 * when the whole clause would give away a slot the question did not ask about. Empty when nothing is left.
 */
export function narrowStatement(statement: string, hiddenTerms: readonly string[]): string {
  const hidden = new Set(hiddenTerms);
  const pieces = statement
    .replace(/[.!?]+$/, '')
    .split(/\s*[,;]\s*|\s+(?:and|or|with|where|while|including)\s+/)
    .map((p) => p.replace(/^(?:and|or)\s+/i, '').trim())
    .filter(Boolean);
  const kept = pieces.filter((p) => !tokens(p).some((t) => hidden.has(t)) && !contentStems(p).some((s) => hidden.has(s)) && !leakRoots(p).some((s) => hidden.has(s)));
  if (kept.length === 0 || kept.length === pieces.length) return kept.length === 0 ? '' : statement;
  return `${kept.length > 1 ? `${kept.slice(0, -1).join(', ')} and ${kept.at(-1)}` : kept[0]}.`;
}

/** Helpers the annotator needs too: a clause's value words. */
export function clauseValues(text: string): { colours: Set<string>; numbers: string[] } {
  return { colours: colourKeys(text), numbers: numberValues(text) };
}
