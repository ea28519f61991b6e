import { capitalise, endSentence, lowerFirst } from './text.js';
import { colourAssignments, type ColourAssignment } from './values.js';

/**
 * Ways of saying one gold statement that every voice shares: as the user wrote it, cut to its core, or as
 * colour-and-part pairs. They only reshape the user's own sentence; nothing here adds a fact.
 */

/** The statement as the user would say it to someone: without "Please", ending in one full stop. */
export function spoken(statement: string): string {
  return endSentence(capitalise(statement.trim().replace(/^please\s+/i, '')));
}

const LEADS: readonly RegExp[] = [
  /^please\s+/i,
  /^(?:i want you to |i need you to |can you )?(?:implement|create|develop|build|make|design|set up)\s+/i,
  /^(?:the|this|our|my)\s+(?:[\w-]+\s+){0,2}?(?:website|application|app|site|platform|system|page|webpage|dashboard|game|tool|portal|editor|chatbot|forum)\s+(?:should|must|will|needs to|has to|is to)\s+(?:also\s+)?(?:be able to\s+)?(?:have|include|provide|support|offer|contain|feature|allow users to|let users|enable users to)?\s*/i,
  /^(?:users?|visitors?|players?|customers?|students?|people)\s+(?:should|must|can|will|need to)\s+(?:also\s+)?(?:be able to\s+)?/i,
  /^it\s+(?:should|must)\s+(?:also\s+)?(?:have|include)?\s*/i,
];

/** The core of a statement: "The website should have data visualization ..." -> "Data visualization ...". */
export function core(statement: string): string {
  let s = statement.trim().replace(/[.!?]+$/, '');
  for (const re of LEADS) s = s.replace(re, '');
  return s.length > 0 ? s : statement.trim().replace(/[.!?]+$/, '');
}

/** The part's words as the statement wrote them ("UI elements", not "ui elements"). */
function asWritten(part: string, statement: string): string {
  const i = statement.toLowerCase().indexOf(part.toLowerCase());
  return i >= 0 ? statement.slice(i, i + part.length) : part;
}

export function assignments(statement: string): Array<ColourAssignment & { partWritten: string }> {
  return colourAssignments(statement).map((a) => ({ ...a, partWritten: asWritten(a.part, statement) }));
}

/** The fewest words that carry the fact: "Lavender background, indigo UI elements." */
export function terse(statement: string): string {
  const a = assignments(statement);
  if (a.length > 0) return endSentence(capitalise(a.map((x) => `${x.colour} ${x.partWritten}`).join(', ')));
  return endSentence(capitalise(core(statement)));
}

/** A fact inside a sentence of the voice's own ("..., {fact}"): lower-case start, no full stop. */
export function inline(text: string): string {
  return lowerFirst(text.trim().replace(/[.!?]+$/, ''));
}
