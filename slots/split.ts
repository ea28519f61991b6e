import { z } from 'zod';
import { seedFor } from '../stats/prng.js';
import type { Dataset, Difficulty } from './schema.js';

/**
 * The hold-out split: 20% of the tasks, chosen per stratum (difficulty x primary category) so both parts
 * keep the dataset's mix, the rest are dev. It depends only on task ids, difficulties, categories and a
 * fixed seed, so every machine puts every task on the same side. Tune prompts and agents on dev and report
 * hold-out figures untouched (the paper's own limits warn that 101 seeds invite over-fitting).
 */
export const SplitSchema = z.enum(['dev', 'holdout']);
export type Split = z.infer<typeof SplitSchema>;
export const SplitSelectionSchema = z.enum(['dev', 'holdout', 'all']);
export type SplitSelection = z.infer<typeof SplitSelectionSchema>;

export const SPLIT_SEED = 20261203;
export const HOLDOUT_SHARE = 0.2;

export interface SplitTask {
  id: string;
  category: string;
  difficulty: Difficulty;
}

export function assignSplits(tasks: readonly SplitTask[], seed = SPLIT_SEED, share = HOLDOUT_SHARE): Map<string, Split> {
  const strata = new Map<string, SplitTask[]>();
  for (const t of tasks) {
    const key = `${t.difficulty}|${t.category}`;
    strata.set(key, [...(strata.get(key) ?? []), t]);
  }
  // Largest remainder: each stratum gets floor(n * share), the remaining hold-out places go to the
  // strata with the largest fractional parts (ties by stratum name), so the total is round(N * share).
  const keys = [...strata.keys()].sort();
  const exact = keys.map((k) => strata.get(k)!.length * share);
  const quota = exact.map(Math.floor);
  let left = Math.round(tasks.length * share) - quota.reduce((a, b) => a + b, 0);
  const order = keys.map((k, i) => ({ i, frac: exact[i]! - quota[i]!, k })).sort((a, b) => b.frac - a.frac || a.k.localeCompare(b.k));
  for (const o of order) {
    if (left <= 0) break;
    if (o.frac > 0) {
      quota[o.i]!++;
      left--;
    }
  }
  const out = new Map<string, Split>();
  keys.forEach((k, i) => {
    const ranked = [...strata.get(k)!].sort((a, b) => seedFor(seed, a.id) - seedFor(seed, b.id) || a.id.localeCompare(b.id));
    ranked.forEach((t, j) => out.set(t.id, j < quota[i]! ? 'holdout' : 'dev'));
  });
  return out;
}

/** Each task's split, from the dataset's cases (difficulty as the cases use it: stored, else computed). */
export function datasetSplits(d: Dataset): Map<string, Split> {
  const difficulty = new Map(d.cases.map((c) => [c.taskId, c.difficulty]));
  return assignSplits(d.tasks.filter((t) => difficulty.has(t.id)).map((t) => ({ id: t.id, category: t.category, difficulty: difficulty.get(t.id)! })));
}

/**
 * Every case labelled with its split, and the dataset restricted to one split (`all` keeps everything).
 * Splits are decided on the whole dataset first, so a hold-out run and a full run label tasks alike.
 */
export function withSplits(d: Dataset, which: SplitSelection): Dataset {
  const splits = datasetSplits(d);
  const keep = (id: string) => which === 'all' || splits.get(id) === which;
  return { ...d, tasks: d.tasks.filter((t) => keep(t.id)), cases: d.cases.filter((c) => keep(c.taskId)).map((c) => ({ ...c, split: splits.get(c.taskId)! })) };
}
