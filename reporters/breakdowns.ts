import { mulberry32 } from '../stats/prng.js';
import { groupBy, mean, type AggregateOptions } from './aggregate.js';
import { weightedPassRate, type SlotRecord } from './metrics.js';
import type { Breakdowns, CaseResult } from './report-schema.js';
import { bootstrapMeans, DEFAULT_BOOTSTRAP, quantile, seedOf } from '../stats/intervals.js';

/**
 * Breakdowns the paper leaves out: dev against hold-out (with the difference and its interval), the
 * task's primary category, and WebGen-Bench's test category of each slot. Pure: records and cases in.
 */


const caseKey = (r: { episode?: { agent: string }; caseId: string; trial?: number }) => `${r.episode?.agent ?? ''}\0${r.caseId}\0${r.trial ?? 0}`;
const resultKey = (c: CaseResult) => `${c.agent === 'unknown' ? '' : c.agent}\0${c.id}\0${c.trial}`;

export function breakdowns(records: readonly SlotRecord[], cases: readonly CaseResult[], opts: AggregateOptions = {}): Breakdowns {
  const boot = opts.bootstrap ?? DEFAULT_BOOTSTRAP;
  const first = new Map<string, SlotRecord>();
  for (const r of records) if (!first.has(caseKey(r))) first.set(caseKey(r), r);
  const byId = new Map([...first.values()].map((r) => [r.caseId, r]));
  const meta = (c: CaseResult) => first.get(resultKey(c)) ?? byId.get(c.id);
  const withSplit = cases.filter((c) => meta(c)?.split);
  const dev = withSplit.filter((c) => meta(c)!.split === 'dev');
  const holdout = withSplit.filter((c) => meta(c)!.split === 'holdout');
  return {
    bySplit: groupBy(withSplit, (c) => meta(c)!.split!, { ...opts, group: 'split' }),
    splitDifference: dev.length && holdout.length ? { tcr: difference(dev, holdout, (c) => c.tcr, boot, 'tcr'), hr: difference(dev, holdout, (c) => (c.hallucinated === null ? null : Number(c.hallucinated)), boot, 'hr') } : null,
    byCategory: groupBy(cases.filter((c) => meta(c)?.category), (c) => meta(c)!.category!, { ...opts, group: 'category' }),
    byTestCategory: testCategories(records, boot),
  };
}

/** Mean over dev minus mean over hold-out; the interval resamples each part's cases on its own. */
function difference(dev: readonly CaseResult[], holdout: readonly CaseResult[], value: (c: CaseResult) => number | null, boot: typeof DEFAULT_BOOTSTRAP, name: string) {
  const a = dev.map(value).filter((v): v is number => v !== null);
  const b = holdout.map(value).filter((v): v is number => v !== null);
  const ma = mean(a), mb = mean(b);
  if (ma === null || mb === null) return { dev: ma, holdout: mb, difference: null, ci: null };
  const next = mulberry32(seedOf(`split-difference/${name}`, boot.seed));
  const draws: number[] = [];
  const resampleMean = (xs: number[]) => {
    let t = 0;
    for (let i = 0; i < xs.length; i++) t += xs[Math.floor(next() * xs.length)]!;
    return t / xs.length;
  };
  for (let i = 0; i < boot.resamples; i++) draws.push(resampleMean(a) - resampleMean(b));
  draws.sort((x, y) => x - y);
  const tail = (1 - boot.level) / 2;
  return { dev: ma, holdout: mb, difference: ma - mb, ci: [quantile(draws, tail), quantile(draws, 1 - tail)] as [number, number] };
}

function testCategories(records: readonly SlotRecord[], boot: typeof DEFAULT_BOOTSTRAP): Breakdowns['byTestCategory'] {
  const positives = records.filter((r) => r.assertionType === 'POSITIVE' && r.testCategory);
  const out: Breakdowns['byTestCategory'] = {};
  for (const category of [...new Set(positives.map((r) => r.testCategory!))].sort()) {
    const mine = positives.filter((r) => r.testCategory === category);
    const perCase = new Map<string, SlotRecord[]>();
    for (const r of mine) perCase.set(caseKey(r), [...(perCase.get(caseKey(r)) ?? []), r]);
    // Cluster by case id so trials of a case move together, as in every other interval.
    const clusters = new Map<string, (number | null)[]>();
    for (const slots of perCase.values()) {
      const id = slots[0]!.caseId;
      clusters.set(id, [...(clusters.get(id) ?? []), weightedPassRate(slots, (s) => s.weight)]);
    }
    const values = [...clusters.values()];
    const [ci] = bootstrapMeans([values], values.length, { ...boot, seed: seedOf(`test-category/${category}`, boot.seed) });
    const flat = values.flat().filter((v): v is number => v !== null);
    out[category] = { tcr: mean(flat), ci: ci ?? null, cases: flat.length, slots: mine.length };
  }
  return out;
}
