import { COLOURS, isNumber, tokens } from './text.js';

/**
 * Values as people write them: "papaya whip", "dark slate blue", "bright neon pink" are one colour each,
 * although the word-level view (text.ts) sees two or three tokens. The annotator compares gold and persona
 * texts by these phrases and the user's voices wrap them in images, so both must cut a colour the same way.
 */

/** Words that shade a colour without being one: kept with it, so "dark red" is not "red". */
const SHADES = new Set(['light', 'dark', 'deep', 'pale', 'bright', 'neon', 'soft', 'medium', 'dim', 'hot', 'warm', 'cool', 'vivid', 'pastel', 'muted', 'rich']);
/** Words after a colour that still name it ("azure mist", "forest green" is caught by the lexicon). */
const TAILS = new Set(['mist', 'blush', 'cream', 'whip', 'lace', 'chiffon', 'puff', 'drab']);

export interface ColourPhrase {
  /** As written, lower case, single spaces: "papaya whip". */
  phrase: string;
  /** Spaces and hyphens removed: "papayawhip", for comparing "forest green" with "forestgreen". */
  key: string;
  /** Token index where it starts, for pairing it with the part it colours. */
  start: number;
  end: number;
}

/** Colour phrases in order of appearance, longest match first ("dark slate blue" before "blue"). */
export function colourPhrases(text: string): ColourPhrase[] {
  const t = tokens(text.replace(/-/g, ' '));
  const out: ColourPhrase[] = [];
  let i = 0;
  while (i < t.length) {
    let matched = 0;
    for (let n = 3; n >= 1 && matched === 0; n--) {
      if (i + n > t.length) continue;
      const key = t.slice(i, i + n).join('');
      if (COLOURS.has(key) || /^#[0-9a-f]{3,8}$/.test(key)) matched = n;
    }
    if (matched === 0) {
      i++;
      continue;
    }
    let start = i;
    let end = i + matched;
    while (start > 0 && SHADES.has(t[start - 1]!)) start--;
    if (end < t.length && TAILS.has(t[end]!) && !COLOURS.has(t.slice(i, end + 1).join(''))) end++;
    const words = t.slice(start, end);
    out.push({ phrase: words.join(' '), key: words.join(''), start, end });
    i = end;
  }
  return out;
}

/** The colour keys of a text, for set comparisons. */
export function colourKeys(text: string): Set<string> {
  return new Set(colourPhrases(text).map((c) => c.key));
}

const NUMBER_WORDS: Readonly<Record<string, string>> = {
  single: '1', one: '1', two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9', ten: '10',
  eleven: '11', twelve: '12', fifteen: '15', twenty: '20', thirty: '30', fifty: '50', hundred: '100', dozen: '12',
};

/** Numbers in order, as digits: "five" and "5" are one value. */
export function numberValues(text: string): string[] {
  return tokens(text)
    .filter((t) => isNumber(t) || t === 'single')
    .map((t) => NUMBER_WORDS[t] ?? t);
}

/** What a colour is applied to, in the user's own words ("background", "UI elements"). */
export interface ColourAssignment {
  colour: string;
  part: string;
}

const PARTS: ReadonlyArray<[RegExp, string]> = [
  [/\b(background|backdrop|canvas|base colou?r|page colou?r|backgrounds|body|layout|outer layout)\b/, 'background'],
  [/\b(ui elements|ui components|ui pieces|ui blocks|interactive elements|visible components|main components|components?|elements|controls|interface|content blocks|buttons and cards|buttons|ui)\b/, ''],
  [/\b(text|font|headings?|titles?)\b/, ''],
  [/\b(header|footer|navigation bar|navbar|sidebar|links?|borders?|accents?|highlights)\b/, ''],
];

function partOf(segment: string): string | undefined {
  for (const [re, name] of PARTS) {
    const m = segment.match(re);
    if (m) return name || m[1]!;
  }
  return undefined;
}

/**
 * Pairs each colour in a sentence with what it colours. A sentence such as "Assign lavender to the
 * background and indigo to the UI elements" is cut at "and", "then", ";" and ","; each piece with a colour names
 * its part ("cards" split off "buttons and cards" carries no colour and is skipped).
 */
export function colourAssignments(sentence: string): ColourAssignment[] {
  const halves = sentence
    .toLowerCase()
    .split(/;|,|\s+and\s+|\s+then\s+/)
    .map((h) => h.trim())
    .filter(Boolean);
  const out: ColourAssignment[] = [];
  for (const h of halves) {
    const colours = colourPhrases(h);
    if (colours.length === 0) continue;
    const rest = colours.reduce((s, c) => s.replace(c.phrase, ' '), h.replace(/-/g, ' '));
    const part = partOf(rest) ?? partOf(h) ?? 'the rest';
    for (const c of colours) out.push({ colour: c.phrase, part });
  }
  return out;
}
