import { mulberry32, seedFor } from '../stats/prng.js';
import { DEFAULT_BOOTSTRAP, percentileInterval, type BootstrapOptions } from '../stats/bootstrap.js';
import { agreement, type Agreement, type Judgement } from './agreement.js';

/**
 * How sure a calibration figure is. Verdicts on one task share its site, its author's habits and its
 * judge prompt context, so they are not independent: the bootstrap resamples whole tasks (clusters) and
 * recomputes each statistic on the resampled verdicts. Percentile intervals, seeded per judge and
 * breakdown, so every machine prints the same interval for the same verdicts.
 */

export type Interval = [number, number] | null;

export type { BootstrapOptions } from '../stats/bootstrap.js';
/** The report's settings and percentile rule (stats/bootstrap.ts). */
export const CALIBRATION_BOOTSTRAP: BootstrapOptions = DEFAULT_BOOTSTRAP;

export interface AgreementWithCi extends Agreement {
  ci: { accuracy: Interval; precisionFail: Interval; recallFail: Interval; kappa: Interval };
  /** How many tasks the verdicts come from: the bootstrap's resampling units. */
  tasks: number;
}

export interface ClusteredJudgement extends Judgement {
  cluster: string;
}

const STATS = ['accuracy', 'precisionFail', 'recallFail', 'kappa'] as const;

/** Agreement over the items with a task-clustered percentile bootstrap interval for each statistic. */
export function agreementWithCi(items: readonly ClusteredJudgement[], opts: BootstrapOptions, name: string): AgreementWithCi {
  const point = agreement([...items]);
  const byCluster = new Map<string, ClusteredJudgement[]>();
  for (const i of items) byCluster.set(i.cluster, [...(byCluster.get(i.cluster) ?? []), i]);
  const clusters = [...byCluster.keys()].sort().map((k) => byCluster.get(k)!);
  const draws: Record<(typeof STATS)[number], number[]> = { accuracy: [], precisionFail: [], recallFail: [], kappa: [] };
  const next = mulberry32(seedFor(opts.seed, name));
  for (let b = 0; b < opts.resamples && clusters.length > 0; b++) {
    const sample: Judgement[] = [];
    for (let i = 0; i < clusters.length; i++) sample.push(...clusters[Math.floor(next() * clusters.length)]!);
    const a = agreement(sample);
    for (const s of STATS) {
      const v = a[s];
      // A resample with no fail verdict has no precision: it is left out for that statistic only.
      if (v !== null) draws[s].push(v);
    }
  }
  const ci = Object.fromEntries(STATS.map((s) => [s, point[s] === null ? null : percentileInterval(draws[s], opts.level)])) as AgreementWithCi['ci'];
  return { ...point, ci, tasks: clusters.length };
}

/** Items split by a key, each part with its own agreement and interval; keys in the order given. */
export function agreementBy<K extends string>(
  items: readonly (ClusteredJudgement & { key: K })[],
  keys: readonly K[],
  opts: BootstrapOptions,
  name: string,
): Partial<Record<K, AgreementWithCi>> {
  const out: Partial<Record<K, AgreementWithCi>> = {};
  for (const k of keys) {
    const part = items.filter((i) => i.key === k);
    if (part.length) out[k] = agreementWithCi(part, opts, `${name}/${k}`);
  }
  return out;
}
