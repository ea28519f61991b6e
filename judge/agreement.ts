import type { VerdictStatus } from './types.js';

/**
 * How well a judge agrees with known answers, with "fail" as the class of interest (a judge that passes
 * broken sites is the dangerous one). Errored and unjudged verdicts count as wrong for accuracy and as
 * "not fail" for precision and recall; in Cohen's kappa they are a third category no answer has.
 */
export interface Agreement {
  slots: number;
  correct: number;
  accuracy: number;
  /** Of the verdicts that said fail, the share that should fail; null when none said fail. */
  precisionFail: number | null;
  /** Of the slots that should fail, the share judged fail; null when none should. */
  recallFail: number | null;
  kappa: number | null;
  errored: number;
}

export interface Judgement {
  expected: 'pass' | 'fail';
  got: VerdictStatus;
}

export function agreement(items: Judgement[]): Agreement {
  const n = items.length;
  const correct = items.filter((i) => i.got === i.expected).length;
  const tp = items.filter((i) => i.expected === 'fail' && i.got === 'fail').length;
  const saidFail = items.filter((i) => i.got === 'fail').length;
  const shouldFail = items.filter((i) => i.expected === 'fail').length;
  return {
    slots: n,
    correct,
    accuracy: n ? correct / n : 0,
    precisionFail: saidFail ? tp / saidFail : null,
    recallFail: shouldFail ? tp / shouldFail : null,
    kappa: cohensKappa(items),
    errored: items.filter((i) => i.got === 'errored' || i.got === 'unjudged').length,
  };
}

export function cohensKappa(items: Judgement[]): number | null {
  const n = items.length;
  if (n === 0) return null;
  const po = items.filter((i) => i.got === i.expected).length / n;
  let pe = 0;
  for (const k of ['pass', 'fail'] as const) {
    pe += (items.filter((i) => i.expected === k).length / n) * (items.filter((i) => i.got === k).length / n);
  }
  // Both raters used one and the same category throughout: agreement is total, chance agreement too.
  if (pe === 1) return po === 1 ? 1 : 0;
  return (po - pe) / (1 - pe);
}
