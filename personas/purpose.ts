import { sentences } from './text.js';

/**
 * What the site is for and what it holds, in the gold instruction's own words. Every public gold instruction
 * opens with its purpose ("Please implement a wheel of fortune website where users can spin the wheel to win
 * prizes.") and most follow it with the list of its parts ("The website should have functionalities for
 * ..."). An agent asking what the site is for, who it serves, what pages it has or what users mainly do is
 * owed those sentences: they describe the whole request, so saying them gives away no one slot's details.
 */
export interface PurposeStatements {
  /** The opening sentence: what is built and for whom. */
  purpose: string;
  /** The sentences listing the site's parts or what users can do (may be empty). */
  structure: string[];
}

/** A sentence that lists parts of the site rather than one detail of one part. */
const LISTS_PARTS = /\b(functionalit(?:y|ies)|features?|pages?|sections?|modules?|including|such as|consist|composed|users? (?:should|can|will|must) (?:be able to )?\w+)\b/i;
/** A sentence about colours or looks is a detail, never structure. */
const LOOKS = /\b(colou?r|background|theme|font|style|styling)\b/i;

export function purposeStatements(gold: string): PurposeStatements {
  const sents = sentences(gold);
  const purpose = (sents[0] ?? '').trim();
  const structure = sents.slice(1, 4).filter((s) => LISTS_PARTS.test(s) && !LOOKS.test(s)).slice(0, 2);
  return { purpose, structure };
}

/** The purpose sentence as a request the user made, without "Please implement": "a wheel of fortune website ...". */
export function purposeCore(sentence: string): string {
  return sentence
    .trim()
    .replace(/[.!?]+$/, '')
    .replace(/^(?:please\s+)?(?:implement|create|develop|build|make|design|set up)\s+/i, '');
}
