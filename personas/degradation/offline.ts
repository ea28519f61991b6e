import type { Slot, Task } from '../../slots/schema.js';
import { goldStatements, type Statement } from '../statements.js';
import { contentStems, isNumber, sentences } from '../text.js';
import { colourAssignments, colourKeys, colourPhrases, numberValues } from '../values.js';

/**
 * The offline annotator: which slots a persona instruction omits, blurs or contradicts, read off the two
 * texts alone. Each slot is found in the gold instruction (its statement), the statement's values
 * (colours, numbers) and words are looked for in the persona text, and the persona sentence that retells
 * the statement is compared with it:
 * - kept: every value is there and most of the statement's words;
 * - contradicted: a value is gone and the retelling puts a different concrete value (or a negation) in
 *   its place, in a sentence that otherwise keeps the gold sentence's shape;
 * - blurred: a value is gone (or the words thinned out) but the topic is still recognisable;
 * - omitted: nothing of the statement is left.
 * Slots the gold instruction never states are not degraded by any persona: there was nothing to degrade.
 */
export type SlotKind = 'kept' | 'omits' | 'blurs' | 'contradicts';

export interface SlotFinding {
  slotId: string;
  kind: SlotKind;
  /** The gold sentence about the slot and the persona sentence that retells it (for a reader and for P-CON). */
  gold: string;
  persona: string | null;
  /** Why, in a few words: "values lavender, indigo missing; persona says brightneonpink, darkblack". */
  why: string;
}

export interface OfflineAnnotation {
  omits: string[];
  blurs: string[];
  contradicts: string[];
  findings: SlotFinding[];
}

/**
 * What turns a requirement into its opposite: a negation, or a sabotage the public P-CON texts use ("the form
 * should be invisible", "completely transparent", "cannot be clicked"). Idioms that negate nothing ("don't
 * forget", "without any hassle") are removed before looking.
 */
const REVERSAL = /\b(no|not|never|without|don't|do not|doesn't|shouldn't|avoid|exclude|leave out|only|exclusively|invisible|unclickable|hidden|transparent|cannot|can't|impossible|disabled|unusable|grayscale|greyscale|text-based|(?:must|have to|has to) guess|guess where)\b/i;
const IDIOMS = /\b(?:let['’]?s not|don['’]t|do not|not) forget\b|\bnot (to )?worry\b|\bwithout (any )?(hassle|fuss|trouble)\b|\bnot only\b|\bif not\b|\bno (doubt|idea|wonder)\b/gi;
/** Values that are not colour names but replace one: "bright neon colours", "a dark theme". */
const VALUE_WORDS = /\b(neon|transparent|grayscale|greyscale|dark (?:mode|theme)|light (?:mode|theme)|pitch|rainbow|invisible)\b/i;

function reverses(retold: string, gold: string): boolean {
  const r = retold.replace(IDIOMS, ' ');
  const g = gold.replace(IDIOMS, ' ');
  const cues = (t: string) => new Set((t.toLowerCase().match(new RegExp(REVERSAL.source, 'gi')) ?? []).map((w) => w.toLowerCase()));
  const inGold = cues(g);
  return [...cues(r)].some((c) => !inGold.has(c));
}

function overlap(a: readonly string[], b: ReadonlySet<string>): number {
  const set = new Set(a);
  if (set.size === 0) return 0;
  let n = 0;
  for (const w of set) if (b.has(w)) n++;
  return n / set.size;
}

/** The persona sentence that retells a gold sentence: most shared stems, values left aside. */
function retelling(statement: Statement, personaSents: readonly string[], common: ReadonlySet<string> = new Set()): { sentence: string | null; shape: number } {
  // The frame without its values: "Assign _ to the background and _ to the UI elements".
  const frame = colourPhrases(statement.sentence).reduce((t, c) => t.replace(new RegExp(c.phrase.replace(/ /g, '[\\s-]+'), 'i'), ' '), statement.sentence.replace(/-/g, ' '));
  const all = contentStems(frame).filter((w) => !isNumber(w));
  const own = all.filter((w) => !common.has(w));
  const stems = own.length > 0 ? own : all;
  let best: string | null = null;
  let shape = 0;
  for (const s of personaSents) {
    const o = overlap(stems, new Set(contentStems(s)));
    if (o > shape) {
      shape = o;
      best = s;
    }
  }
  return { sentence: best, shape };
}

/** Share of a statement's own words a retelling keeps for the requirement to count as kept: a chatty paraphrase keeps about half. */
const KEPT = 0.4;

/** Words that say a colour is being talked about, even when no colour is named ("a serene backdrop"). */
const COLOURISH = /\b(colou?rs?|background|backdrop|hues?|tones?|shades?|palette|canvas|tint)\b/i;

/** The persona sentence that speaks of colours most: where a colour requirement is retold, whatever else it says. */
function colourSentence(personaSents: readonly string[]): string | null {
  let best: string | null = null;
  let most = 0;
  for (const s of personaSents) {
    const n = colourPhrases(s).length * 2 + (s.match(new RegExp(COLOURISH.source, 'gi'))?.length ?? 0);
    if (n > most) {
      most = n;
      best = s;
    }
  }
  return best;
}

/** Which colour goes on the background and which on everything else: a swap keeps both colours but trades places. */
function roles(sentence: string): Map<string, 'background' | 'other'> {
  const out = new Map<string, 'background' | 'other'>();
  // A colour whose part the sentence does not name ("something nice, like whitesmoke") has no place to lose.
  for (const a of colourAssignments(sentence)) if (a.part !== 'the rest') out.set(a.colour.replace(/\s+/g, ''), /background|backdrop|canvas|base|body|page|layout|outer/.test(a.part) ? 'background' : 'other');
  return out;
}

/** What the persona's instruction says in place of a gold statement: the stance P-CON defends. */
export function stanceFor(statement: Statement, personaInstruction: string): string | null {
  return retelling(statement, sentences(personaInstruction)).sentence;
}

function valuesOf(slot: Slot, statement: Statement): { colours: string[]; numbers: string[] } {
  const clause = statement.clause;
  const slotColours = colourKeys(`${slot.task} ${slot.expectedResult}`);
  const clauseColours = [...colourKeys(clause)];
  // The slot's own colours when the clause has them; otherwise every colour the clause states.
  const colours = clauseColours.filter((c) => slotColours.has(c));
  return { colours: colours.length > 0 ? colours : clauseColours, numbers: numberValues(clause) };
}

export function annotateOffline(task: Pick<Task, 'goldInstruction' | 'slots'>, personaInstruction: string): OfflineAnnotation {
  const statements = goldStatements(task);
  const personaSents = sentences(personaInstruction);
  const personaStems = new Set(contentStems(personaInstruction));
  const personaColours = colourKeys(personaInstruction);
  const personaNumbers = new Set(numberValues(personaInstruction));
  const goldColours = colourKeys(task.goldInstruction);
  const goldNumbers = new Set(numberValues(task.goldInstruction));
  const findings: SlotFinding[] = [];
  const retoldWhole = personaInstruction.split(/\s+/).length >= 0.6 * task.goldInstruction.split(/\s+/).length;
  const goldSents = sentences(task.goldInstruction);
  // The site's subject ("recipe" in a recipe site: the opening sentence's words, and words most sentences
  // share) says nothing about WHICH requirement survived.
  const sentStems = goldSents.map((s) => new Set(contentStems(s)));
  const frequent = new Set([...new Set(sentStems.flatMap((s) => [...s]))].filter((w) => sentStems.filter((s) => s.has(w)).length * 2 > goldSents.length));
  const commonFor = (st: Statement) => new Set([...frequent, ...(st.sentenceIndex === 0 ? [] : sentStems[0] ?? [])]);

  for (const slot of task.slots) {
    const st = statements.get(slot.id);
    if (!st) continue;
    const common = commonFor(st);
    const told = retelling(st, personaSents, common);
    const values = valuesOf(slot, st);
    // "warm peru" still says peru; "twilight gray" for "dim gray" is a blur, not a different colour.
    const present = (c: string) => [...personaColours].some((p) => p.includes(c));
    const missing = [...values.colours.filter((c) => !present(c)), ...values.numbers.filter((n) => !personaNumbers.has(n))];
    const clauseStems = contentStems(st.clause);
    const ownStems = clauseStems.filter((w) => !common.has(w));
    const stems = ownStems.length > 0 ? ownStems : clauseStems;
    const coverage = overlap(stems, personaStems);
    const retold = told.sentence ?? '';
    const related = (a: string, b: string) => a.includes(b) || b.includes(a);
    const newColours = [...colourKeys(retold)].filter((c) => !goldColours.has(c) && !values.colours.some((v) => related(v, c)));
    const newNumbers = numberValues(retold).filter((n) => !goldNumbers.has(n));
    const negated = reverses(retold, st.sentence);
    const valueWords = VALUE_WORDS.test(retold) && !VALUE_WORDS.test(st.sentence);
    const finding = (kind: SlotKind, why: string): SlotFinding => ({ slotId: slot.id, kind, gold: st.sentence, persona: told.sentence, why });

    if (values.colours.length > 0) {
      // A colour requirement is compared with the persona sentence that talks colours, wherever it stands.
      const said = colourSentence(personaSents) ?? '';
      const colourFinding = (kind: SlotKind, why: string): SlotFinding => ({ slotId: slot.id, kind, gold: st.sentence, persona: said || null, why });
      const fresh = [...colourKeys(said)].filter((c) => !goldColours.has(c) && !values.colours.some((v) => related(v, c)));
      const sabotage = VALUE_WORDS.test(said) || reverses(said, st.sentence);
      if (missing.length === 0) {
        const want = roles(st.clause);
        const got = roles(said);
        const swapped = [...want].filter(([c, r]) => got.has(c) && got.get(c) !== r).map(([c]) => c);
        if (swapped.length > 0) findings.push(colourFinding('contradicts', `${swapped.join(', ')} moved to another part`));
        else if (sabotage && said !== '') findings.push(colourFinding('contradicts', 'the colours are kept but the retelling negates or hides them'));
        else findings.push(colourFinding('kept', 'every colour kept in its place'));
        continue;
      }
      if (fresh.length > 0 || sabotage) findings.push(colourFinding('contradicts', `${missing.join(', ')} missing; the retelling says ${fresh.join(', ') || said.match(VALUE_WORDS)?.[0] || 'the opposite'}`));
      else if (said !== '' && COLOURISH.test(said)) findings.push(colourFinding('blurs', `${missing.join(', ')} missing; colours are still spoken of`));
      else findings.push(colourFinding('omits', `${missing.join(', ')} missing with the topic`));
      continue;
    }
    if (missing.length > 0) {
      // A swapped value in a sentence that keeps the gold one's frame is a contradiction; a value dissolved
      // into imagery is a blur; a value gone with its whole sentence is an omission.
      if ((newColours.length > 0 || newNumbers.length > 0 || valueWords) && told.shape >= 0.3) {
        const said = [...newColours, ...newNumbers, ...(valueWords ? [retold.match(VALUE_WORDS)![0]] : [])];
        findings.push(finding('contradicts', `${missing.join(', ')} missing; the retelling says ${said.join(', ')}`));
      } else if (negated && told.shape >= 0.3) {
        findings.push(finding('contradicts', `${missing.join(', ')} missing; the retelling negates it`));
      } else if (told.shape >= 0.25 || coverage >= 0.25) {
        findings.push(finding('blurs', `${missing.join(', ')} missing; the topic remains`));
      } else findings.push(finding('omits', `${missing.join(', ')} missing with the topic`));
      continue;
    }
    if (negated && told.shape >= 0.5) {
      findings.push(finding('contradicts', 'the retelling negates it'));
      continue;
    }
    if (coverage >= KEPT || (values.colours.length + values.numbers.length > 0 && coverage >= 0.3)) findings.push(finding('kept', `${Math.round(coverage * 100)}% of its words kept`));
    else if (coverage >= 0.25 || told.shape >= 0.3) findings.push(finding('blurs', `${Math.round(coverage * 100)}% of its words kept`));
    // A retelling as long as the request that shares no words with a requirement has reworded it, not dropped
    // it (the intuitive persona's imagery); a much shorter one has dropped it.
    else if (retoldWhole) findings.push(finding('blurs', `${Math.round(coverage * 100)}% of its words kept, in a retelling as long as the request`));
    else findings.push(finding('omits', `${Math.round(coverage * 100)}% of its words kept`));
  }
  const ids = (k: SlotKind) => findings.filter((f) => f.kind === k).map((f) => f.slotId);
  return { omits: ids('omits'), blurs: ids('blurs'), contradicts: ids('contradicts'), findings };
}
