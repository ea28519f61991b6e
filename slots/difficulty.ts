import { createRequire } from 'node:module';
import type { kmeans as KMeans } from 'ml-kmeans';
import { DIFFICULTIES, type Difficulty } from './schema.js';

/**
 * ml-kmeans brings some 260 modules (ml-spectra-processing and friends): loaded on first use only, since
 * every Playwright worker loads the dataset and most datasets store their difficulty.
 */
let loaded: typeof KMeans | undefined;
function kmeans(...args: Parameters<typeof KMeans>): ReturnType<typeof KMeans> {
  loaded ??= (createRequire(import.meta.url)('ml-kmeans') as { kmeans: typeof KMeans }).kmeans;
  return loaded(...args);
}

export interface Partition {
  /** One label per input value, in input order. */
  labels: Difficulty[];
  /** Cluster centres, ascending: easy, middle, hard. */
  centroids: number[];
  sse: number;
}

const RESTARTS = 64;

/**
 * 1-D K-means (k = 3) over tasks' total weights, named easy / middle / hard by ascending centroid.
 * Lloyd's algorithm stops in local optima, and on the public data different seeds stop in different
 * ones; so it is restarted from a fixed list of seeds and the lowest SSE wins. The list is fixed (0..63)
 * and never searched for agreement with any labels, so the result is the same every run.
 */
export function difficultyPartition(values: readonly number[]): Partition {
  if (values.length === 0) return { labels: [], centroids: [], sse: 0 };
  const distinct = [...new Set(values)].sort((a, b) => a - b);
  if (distinct.length < 3) return fewDistinct(values, distinct);
  const data = values.map((v) => [v]);
  let best: Partition | undefined;
  for (let seed = 0; seed < RESTARTS; seed++) {
    const result = kmeans(data, 3, { seed, initialization: 'kmeans++', maxIterations: 300 });
    const centres = result.centroids.map((c) => c[0]!);
    const order = centres.map((c, i) => ({ c, i })).sort((a, b) => a.c - b.c);
    const rank = new Map(order.map((o, r) => [o.i, r]));
    const labels = result.clusters.map((cluster) => DIFFICULTIES[rank.get(cluster)!]!);
    const candidate = { labels, centroids: order.map((o) => o.c), sse: partitionSse(values, labels) };
    if (!best || candidate.sse < best.sse - 1e-12) best = candidate;
  }
  return best!;
}

/** With fewer than three distinct totals there is nothing to cluster: rank the distinct values instead. */
function fewDistinct(values: readonly number[], distinct: number[]): Partition {
  const names: Difficulty[] = distinct.length === 1 ? ['middle'] : ['easy', 'hard'];
  const labels = values.map((v) => names[distinct.indexOf(v)]!);
  return { labels, centroids: distinct, sse: 0 };
}

/** Within-cluster sum of squared distances to each cluster's mean, for any labelling. */
export function partitionSse(values: readonly number[], labels: readonly string[]): number {
  const groups = new Map<string, number[]>();
  values.forEach((v, i) => {
    const g = groups.get(labels[i]!) ?? [];
    g.push(v);
    groups.set(labels[i]!, g);
  });
  let sse = 0;
  for (const g of groups.values()) {
    const mean = g.reduce((a, b) => a + b, 0) / g.length;
    for (const v of g) sse += (v - mean) ** 2;
  }
  return sse;
}

/** Step cap by difficulty, as the paper's harness sets it. */
export const STEP_CAPS: Record<Difficulty, number> = { easy: 15, middle: 20, hard: 25 };

/**
 * The exact optimum of 1-D K-means (clusters of sorted values are contiguous, so dynamic programming over
 * split points finds it). Used to check that the restarted K-means reached the global optimum.
 */
export function optimalSse1d(values: readonly number[], k = 3): number {
  const v = [...values].sort((a, b) => a - b);
  const n = v.length;
  if (n <= k) return 0;
  const pre = [0];
  const pre2 = [0];
  for (const x of v) {
    pre.push(pre.at(-1)! + x);
    pre2.push(pre2.at(-1)! + x * x);
  }
  const cost = (i: number, j: number): number => {
    const s = pre[j]! - pre[i]!;
    return pre2[j]! - pre2[i]! - (s * s) / (j - i);
  };
  let prev = Array.from({ length: n + 1 }, (_, j) => (j === 0 ? 0 : cost(0, j)));
  for (let c = 2; c <= k; c++) {
    const next = Array<number>(n + 1).fill(Infinity);
    for (let j = c; j <= n; j++) {
      for (let i = c - 1; i < j; i++) next[j] = Math.min(next[j]!, prev[i]! + cost(i, j));
    }
    prev = next;
  }
  return Math.max(0, prev[n]!);
}
