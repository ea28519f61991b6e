/**
 * The percentile bootstrap's shared parts, low in the house so judge/ (calibration) and reporters/ (the
 * report's intervals) use one rule without one importing the other. Pure and seeded: the same data give
 * the same interval on every machine and in every shard merge.
 */

export interface BootstrapOptions {
  resamples: number;
  seed: number;
  /** Two-sided coverage, e.g. 0.95. */
  level: number;
}

export const DEFAULT_BOOTSTRAP: BootstrapOptions = { resamples: 1000, seed: 20261202, level: 0.95 };

/** Linear-interpolated quantile of sorted values. */
export function quantile(sorted: readonly number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/** The two-sided percentile interval of a statistic's resampled values (sorted here); null with no draw. */
export function percentileInterval(draws: number[], level: number): [number, number] | null {
  if (draws.length === 0) return null;
  draws.sort((a, b) => a - b);
  const tail = (1 - level) / 2;
  return [quantile(draws, tail), quantile(draws, 1 - tail)];
}
