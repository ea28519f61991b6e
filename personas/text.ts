import lexicon from './lexicon.json' with { type: 'json' };
import type { Slot } from '../slots/schema.js';

/**
 * The word-level view of requirements that retrieval, containment and the offline operators share. They
 * must agree on what a "term" is: if the operator blurs "navy" but containment tokenises it differently,
 * a leak goes unseen.
 */

export const COLOURS: ReadonlySet<string> = new Set(lexicon.colours);
export const NUMBER_WORDS: ReadonlySet<string> = new Set(lexicon.numberWords);
const STOP: ReadonlySet<string> = new Set(lexicon.stopwords);
const GENERIC: ReadonlySet<string> = new Set(lexicon.generic);
const COLOUR_QUESTION: ReadonlySet<string> = new Set(lexicon.colourQuestionWords);
const SYNONYMS: Readonly<Record<string, string>> = lexicon.synonyms;

/** Lower-case word tokens; hex colours keep their '#', numbers keep decimals ("1.5", "#1e3a8a"). */
export function tokens(text: string): string[] {
  return text.toLowerCase().match(/#[0-9a-f]{3,8}\b|\d+(?:\.\d+)?|[a-z]+/g) ?? [];
}

/** A light suffix stripper: enough that "buttons" meets "button" and "filtering" meets "filter". */
export function stem(word: string): string {
  if (word.length <= 3 || /^[#\d]/.test(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return word.slice(0, -3) + 'y';
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('ing') && word.length > 5) return word.slice(0, -3);
  if (word.endsWith('ed') && word.length > 4) return word.slice(0, -2);
  if (word.endsWith('es') && /(ch|sh|x|z)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) return word.slice(0, -1);
  return word;
}

export function isStopword(token: string): boolean {
  return STOP.has(token);
}

export function isColour(token: string): boolean {
  return COLOURS.has(token) || /^#[0-9a-f]{3,8}$/.test(token);
}

export function isNumber(token: string): boolean {
  return /^\d/.test(token) || NUMBER_WORDS.has(token);
}

/** Stems of the words that carry meaning: no stopwords, no web boilerplate ("page", "display"). */
export function contentStems(text: string): string[] {
  return tokens(text)
    .filter((t) => !STOP.has(t) && !GENERIC.has(t) && (t.length > 1 || isNumber(t)))
    .map((t) => {
      const s = stem(t);
      return SYNONYMS[s] ?? s;
    });
}

/**
 * Word roots for leak checks: a stem cut to five letters, so "revival" meets "reviving" (and "price" meets "pricing") and "manager" meets
 * "management". Coarser than a stem on purpose: a leak check should rather see too much than too little.
 */
export function leakRoots(text: string): string[] {
  // A final e goes first: the stemmer turns "pricing" into "pric" but leaves "price".
  return contentStems(text).map((s) => (/^[#\d]/.test(s) ? s : s.replace(/(?<=..[^aeiou])e$/, '').slice(0, 5)));
}

/** Colour names and numbers: the facts a vague or contradicting user most often gets wrong. */
export interface ConcreteFacts {
  colours: string[];
  numbers: string[];
}

export function concreteFacts(text: string): ConcreteFacts {
  const t = tokens(text);
  return { colours: unique(t.filter(isColour)), numbers: unique(t.filter(isNumber)) };
}

export function slotText(slot: Slot): string {
  return `${slot.task} ${slot.expectedResult} ${slot.targetComponent}`;
}

/**
 * Index terms for a slot or a question. Besides its stems, a text carrying a colour gets the concept term
 * "colour" and one carrying a number gets "count", so "what colour should the header be?" can find
 * "navy header" although the slot never says "colour".
 */
export function indexTerms(text: string): string[] {
  const t = tokens(text);
  const out = contentStems(text);
  if (t.some((w) => isColour(w) || COLOUR_QUESTION.has(w))) out.push('colour');
  if (t.some((w) => /^\d/.test(w)) || /\bhow many\b|\bnumber of\b/.test(text.toLowerCase())) out.push('count');
  return out;
}

export function sentences(text: string): string[] {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .split(/(?<=[.!?])\s+(?=[A-Z0-9"'(])/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

export function unique<T>(items: Iterable<T>): T[] {
  return [...new Set(items)];
}

/** Which sentence of a text states a slot best (most shared stems); -1 when none shares any. */
export function sentenceFor(slot: Slot, sents: readonly string[]): number {
  const want = new Set(contentStems(slotText(slot)));
  const facts = concreteFacts(slotText(slot));
  let best = -1;
  let bestScore = 0;
  sents.forEach((s, i) => {
    const have = new Set(contentStems(s));
    let score = 0;
    for (const w of want) if (have.has(w)) score += 1;
    // A shared colour or number is worth more than a shared noun: it pins the exact fact down.
    const st = tokens(s);
    for (const c of [...facts.colours, ...facts.numbers]) if (st.includes(c)) score += 2;
    if (score > bestScore) {
      bestScore = score;
      best = i;
    }
  });
  return best;
}

export function capitalise(s: string): string {
  return s.length === 0 ? s : s[0]!.toUpperCase() + s.slice(1);
}

export function lowerFirst(s: string): string {
  return s.length === 0 ? s : s[0]!.toLowerCase() + s.slice(1);
}

/** A sentence ends with one full stop, whatever the template or slot text brought. */
export function endSentence(s: string): string {
  const t = s.trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
}
