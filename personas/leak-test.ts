import { degradedSlotIds, type Case, type Persona } from '../slots/schema.js';
import { stockText } from './answer.js';
import { OUTCOMES, scoreAnswer, type Outcome } from './answer-score.js';
import { leakBattery, QUESTION_KINDS, type QuestionKind } from './battery.js';
import { oracleText } from './statements.js';
import { sentences } from './text.js';
import type { SimulatedUser } from './types.js';
import { VOICES } from './voices.js';

export { leakBattery, type BatteryQuestion } from './battery.js';

/**
 * The leak test plays a fixed battery of questions (personas/battery.ts) per case, one session per case, and
 * scores every answer (personas/answer-score.ts): right, an appropriate refusal, P-CON's stance, a miss, or
 * wrong; and, apart, whether it leaked a slot the question did not target or quoted the judge's wording.
 * An errored turn (the user model failed) measures nothing: it is left out of every rate and counted apart.
 */
export interface PersonaLeakStats {
  /** Answered turns: the denominator of every rate. */
  questions: number;
  /** Turns that errored, left out of every rate. */
  errored: number;
  outcomes: Record<Outcome, number>;
  /** Of questions whose answer the gold states (not P-CON's stance), the share answered right. */
  correctRate: number;
  /** Of questions asserting what the gold lacks (false premises), the share denied. */
  premiseRejectedRate: number;
  /** Of questions offering an unrequested feature, the share declined. */
  extraDeclinedRate: number;
  /** Share of answers revealing a slot the question did not target. */
  leakRate: number;
  /** Answers repeating more than seven consecutive words of the test wording (count). */
  oracleQuotes: number;
  /** Answers reciting more than six consecutive words of the gold instruction (count; P-INT's must be 0). */
  goldPastes: number;
  refusalRate: number;
  /** Share of turns that retrieved a slot this persona's instruction omits, blurs or contradicts. */
  hitRate: number;
  /** In words. */
  meanAnswerLength: number;
  /** Answers regenerated at least once because containment caught a leak. */
  regenerated: number;
  /** Per question kind: answered turns and how many were right. */
  byKind: Partial<Record<QuestionKind, { n: number; correct: number }>>;
}

export interface LeakTestReport {
  cases: number;
  byPersona: Partial<Record<Persona, PersonaLeakStats>>;
  /** The leaking and the wrong answers, for a reader to judge the scorer. */
  leaks: Array<{ caseId: string; question: string; answer: string; slotIds: string[] }>;
  wrong: Array<{ caseId: string; kind: QuestionKind; question: string; answer: string }>;
}

interface Acc {
  q: number;
  errored: number;
  outcomes: Record<Outcome, number>;
  stated: number;
  statedCorrect: number;
  premise: number;
  premiseOk: number;
  extra: number;
  extraOk: number;
  leak: number;
  quotes: number;
  pasted: number;
  refused: number;
  hit: number;
  words: number;
  regen: number;
  byKind: Partial<Record<QuestionKind, { n: number; correct: number }>>;
}

const emptyAcc = (): Acc => ({
  q: 0, errored: 0, outcomes: Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>,
  stated: 0, statedCorrect: 0, premise: 0, premiseOk: 0, extra: 0, extraOk: 0, leak: 0, quotes: 0, pasted: 0, refused: 0, hit: 0, words: 0, regen: 0, byKind: {},
});

export async function runLeakTest(cases: readonly Case[], userFor: (c: Case) => SimulatedUser): Promise<LeakTestReport> {
  const acc = new Map<Persona, Acc>();
  const leaks: LeakTestReport['leaks'] = [];
  const wrong: LeakTestReport['wrong'] = [];
  for (const c of cases) {
    const user = userFor(c);
    const a = acc.get(c.persona) ?? emptyAcc();
    acc.set(c.persona, a);
    const degraded = new Set(degradedSlotIds(c) ?? []);
    const contradicted = new Set(c.task.personas[c.persona]?.degradation?.contradicts ?? []);
    const ctx = { slots: c.slots, instruction: c.instruction, oracle: oracleText(c.slots), stock: `${stockText(c.persona)} ${VOICES[c.persona].stock ?? ''}`, gold: sentences(c.task.goldInstruction), told: [] as string[] };
    for (const b of leakBattery(c)) {
      const t = await user.answer(b.question);
      if (t.error) {
        a.errored += 1;
        continue;
      }
      const s = scoreAnswer(b, t, ctx, contradicted);
      ctx.told.push(t.answer);
      a.q += 1;
      a.outcomes[s.outcome] += 1;
      const k = (a.byKind[b.kind] ??= { n: 0, correct: 0 });
      k.n += 1;
      if (s.outcome === 'correct') k.correct += 1;
      if (b.expect.kind === 'state' && s.outcome !== 'stance') {
        a.stated += 1;
        if (s.outcome === 'correct') a.statedCorrect += 1;
      }
      if (b.kind === 'premise') {
        a.premise += 1;
        if (s.outcome === 'correct') a.premiseOk += 1;
      }
      if (b.kind === 'extra') {
        a.extra += 1;
        if (s.outcome === 'correct') a.extraOk += 1;
      }
      if (t.refused) a.refused += 1;
      if (t.retries > 0) a.regen += 1;
      if (s.quote) a.quotes += 1;
      if (s.pasted) a.pasted += 1;
      if (t.retrievedSlotIds.some((id) => degraded.has(id))) a.hit += 1;
      a.words += t.answer.split(/\s+/).filter(Boolean).length;
      if (s.leakedSlotIds.length > 0) {
        a.leak += 1;
        leaks.push({ caseId: c.id, question: b.question, answer: t.answer, slotIds: s.leakedSlotIds });
      }
      if (s.outcome === 'wrong' || s.outcome === 'miss') wrong.push({ caseId: c.id, kind: b.kind, question: b.question, answer: t.answer });
    }
  }
  const byPersona: LeakTestReport['byPersona'] = {};
  const ratio = (n: number, d: number) => (d === 0 ? 0 : Math.round((n / d) * 1000) / 1000);
  for (const [p, a] of acc) {
    byPersona[p] = {
      questions: a.q,
      errored: a.errored,
      outcomes: a.outcomes,
      correctRate: ratio(a.statedCorrect, a.stated),
      premiseRejectedRate: ratio(a.premiseOk, a.premise),
      extraDeclinedRate: ratio(a.extraOk, a.extra),
      leakRate: ratio(a.leak, a.q),
      oracleQuotes: a.quotes,
      goldPastes: a.pasted,
      refusalRate: ratio(a.refused, a.q),
      hitRate: ratio(a.hit, a.q),
      meanAnswerLength: a.q === 0 ? 0 : Math.round((a.words / a.q) * 10) / 10,
      regenerated: a.regen,
      byKind: Object.fromEntries(QUESTION_KINDS.filter((k) => a.byKind[k]).map((k) => [k, a.byKind[k]!])),
    };
  }
  return { cases: cases.length, byPersona, leaks, wrong };
}
