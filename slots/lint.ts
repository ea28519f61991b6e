import { normaliseColour } from './css-values.js';
import type { Task } from './schema.js';

/**
 * Quality findings on a loaded dataset that do not stop it from running but weaken what it measures:
 * a task no NEGATIVE slot guards (hallucination is never measured on it), a persona instruction that is
 * the gold one (nothing to clarify), and facts of the gold instruction no slot tests (an agent can get
 * them wrong unseen). Pure: tasks in, findings out.
 */

export interface GoldFact {
  kind: 'colour' | 'number' | 'label';
  text: string;
}

export interface LintFindings {
  tasksWithoutNegative: string[];
  personaEqualsGold: Array<{ task: string; persona: string }>;
  untestedGoldFacts: Array<{ task: string; facts: GoldFact[] }>;
  /** Gold facts found and how many of them some slot tests. */
  goldFacts: { found: number; tested: number };
}

const squash = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();

// Words that parse as CSS colours but in instructions are almost never one ("tan" as in tan lines is rare; kept).
const NOT_COLOURS = new Set(['transparent']);

/** Colours (CSS colour names), numbers (with units, money and times kept whole) and quoted labels. */
export function goldFacts(text: string): GoldFact[] {
  const facts = new Map<string, GoldFact>();
  const add = (kind: GoldFact['kind'], t: string) => {
    const key = `${kind}:${squash(t)}`;
    if (!facts.has(key)) facts.set(key, { kind, text: t });
  };
  for (const m of text.matchAll(/"([^"]{1,60})"|“([^”]{1,60})”/g)) add('label', (m[1] ?? m[2]!).trim());
  const unquoted = text.replace(/"[^"]*"|“[^”]*”/g, ' ');
  for (const m of unquoted.matchAll(/[£$€]?\d[\d,]*(?:[.:]\d+)?%?/g)) add('number', m[0].replace(/[.,]$/, ''));
  for (const m of unquoted.matchAll(/\b[a-z]{3,20}\b/gi)) {
    const w = m[0].toLowerCase();
    if (!NOT_COLOURS.has(w) && /^[a-z]+$/.test(w) && normaliseColour(w) !== null) add('colour', w);
  }
  return [...facts.values()];
}

/** Whether some slot mentions the fact: in its task, expected result or probe. */
function tested(fact: GoldFact, slotText: string): boolean {
  const f = squash(fact.text);
  if (fact.kind === 'number') {
    // 1,240 and 1240, £39.00 and 39.00 are the same number to a reader.
    const bare = f.replace(/[£$€,%]/g, '');
    return slotText.includes(f) || slotText.replace(/[£$€,%]/g, '').includes(bare);
  }
  return slotText.includes(f);
}

export function lintTasks(tasks: readonly Task[]): LintFindings {
  const out: LintFindings = { tasksWithoutNegative: [], personaEqualsGold: [], untestedGoldFacts: [], goldFacts: { found: 0, tested: 0 } };
  for (const t of tasks) {
    if (!t.slots.some((s) => s.assertionType === 'NEGATIVE')) out.tasksWithoutNegative.push(t.id);
    for (const [persona, view] of Object.entries(t.personas)) {
      if (view && squash(view.instruction) === squash(t.goldInstruction)) out.personaEqualsGold.push({ task: t.id, persona });
    }
    const slotText = squash(t.slots.map((s) => `${s.task} ${s.expectedResult} ${s.probe ? JSON.stringify(s.probe) : ''}`).join(' \n '));
    const facts = goldFacts(t.goldInstruction);
    const missing = facts.filter((f) => !tested(f, slotText));
    out.goldFacts.found += facts.length;
    out.goldFacts.tested += facts.length - missing.length;
    if (missing.length) out.untestedGoldFacts.push({ task: t.id, facts: missing });
  }
  return out;
}
