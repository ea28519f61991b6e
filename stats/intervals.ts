import { mulberry32, seedFor } from './prng.js';
import { percentileInterval, type BootstrapOptions } from './bootstrap.js';

/**
 * The statistics behind the report's intervals and rankings. Pure and seeded: the same cases give the
 * same intervals on every machine and in every shard merge.
 */

/** A stable seed per name (a group, a pair of runs), so each resampling is its own but reproducible. */
export const seedOf = (text: string, base = 0): number => seedFor(base, text);

export { DEFAULT_BOOTSTRAP, quantile, type BootstrapOptions } from './bootstrap.js';

/**
 * Percentile bootstrap intervals of several means at once. `clusters` are the resampling units (a case
 * with all its trials); `values[m][c]` lists metric m's values on cluster c (null where it does not
 * apply). A resample that leaves a metric with no value is skipped for that metric; an interval needs
 * at least one defined value, else it is null.
 */
export function bootstrapMeans(values: readonly (readonly (readonly (number | null)[])[])[], clusters: number, opts: BootstrapOptions): ([number, number] | null)[] {
  return bootstrapRatios(values.map((metric) => metric.map((cluster) => cluster.map((v) => (v === null ? null : ([v, 1] as const))))), clusters, opts);
}

/**
 * The same for pooled ratios: each value is a numerator and a denominator, and a resample's figure is the
 * sum of numerators over the sum of denominators (a mean is the case where every denominator is 1). A
 * resample whose denominators sum to 0 is skipped for that metric.
 */
export function bootstrapRatios(values: readonly (readonly (readonly (readonly [number, number] | null)[])[])[], clusters: number, opts: BootstrapOptions): ([number, number] | null)[] {
  const next = mulberry32(opts.seed);
  const draws: number[][] = values.map(() => []);
  const pick = new Int32Array(clusters);
  for (let b = 0; b < opts.resamples && clusters > 0; b++) {
    for (let i = 0; i < clusters; i++) pick[i] = Math.floor(next() * clusters);
    values.forEach((metric, m) => {
      let num = 0;
      let den = 0;
      for (let i = 0; i < clusters; i++) {
        for (const v of metric[pick[i]!]!) {
          if (v !== null) {
            num += v[0];
            den += v[1];
          }
        }
      }
      if (den > 0) draws[m]!.push(num / den);
    });
  }
  return draws.map((d) => percentileInterval(d, opts.level));
}

function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

/**
 * pass^k as tau-bench defines it: for each task with n trials of which c succeeded, C(c, k) / C(n, k),
 * the chance that k trials drawn without replacement all succeed; averaged over tasks.
 */
export function passHatK(trials: readonly { n: number; successes: number }[], k: number): number | null {
  const usable = trials.filter((t) => t.n >= k);
  if (usable.length === 0 || k < 1) return null;
  return usable.reduce((a, t) => a + choose(t.successes, k) / choose(t.n, k), 0) / usable.length;
}

/** Kendall's tau-b between two scorings of the same items (ties handled); null with fewer than 2 items. */
export function kendallTauB(x: readonly number[], y: readonly number[]): number | null {
  if (x.length !== y.length) throw new Error(`kendallTauB: ${x.length} scores against ${y.length}`);
  let concordant = 0;
  let discordant = 0;
  let tiesX = 0;
  let tiesY = 0;
  for (let i = 0; i < x.length; i++) {
    for (let j = i + 1; j < x.length; j++) {
      const dx = Math.sign(x[i]! - x[j]!);
      const dy = Math.sign(y[i]! - y[j]!);
      if (dx === 0 && dy === 0) continue;
      if (dx === 0) tiesX++;
      else if (dy === 0) tiesY++;
      else if (dx === dy) concordant++;
      else discordant++;
    }
  }
  const denom = Math.sqrt((concordant + discordant + tiesX) * (concordant + discordant + tiesY));
  return x.length < 2 || denom === 0 ? null : (concordant - discordant) / denom;
}
