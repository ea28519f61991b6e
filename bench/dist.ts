import { z } from 'zod';

/** A timing's spread as every bench table shows it: how many, median and p95 (nearest rank), in whole ms. */
export const DistSchema = z.object({ n: z.number().int().nonnegative(), median: z.number().nullable(), p95: z.number().nullable() });
export type Dist = z.infer<typeof DistSchema>;

export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

export function dist(values: readonly number[]): Dist {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (v: number | null) => (v === null ? null : Math.round(v));
  return { n: sorted.length, median: round(percentile(sorted, 50)), p95: round(percentile(sorted, 95)) };
}
