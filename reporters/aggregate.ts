import { costOf } from '../llm/cost.js';
import type { PriceTable } from '../llm/usage.js';
import { compareGroupKeys } from './group-order.js';
import type { CaseResult } from './metrics.js';
import { METRIC_KEYS, METRIC_ROWS, type MetricKey } from './metric-table.js';
import type { Aggregate } from './report-schema.js';
import { bootstrapRatios, DEFAULT_BOOTSTRAP, seedOf, type BootstrapOptions } from '../stats/intervals.js';

export type { Aggregate } from './report-schema.js';

/** Which per-case value each aggregate metric averages: read off the metric table. */
export const CASE_VALUE: Record<MetricKey, (c: CaseResult) => number | null> = Object.fromEntries(METRIC_ROWS.map((m) => [m.key, m.value])) as Record<MetricKey, (c: CaseResult) => number | null>;

type Pair = readonly [number, number];
/**
 * What each aggregate sums per case: a pooled row's numerator and denominator, or a mean row's value over 1,
 * so one rule (sum of numerators over sum of denominators) gives both kinds of figure and their intervals.
 */
const overOne = (value: (c: CaseResult) => number | null) => (c: CaseResult): Pair | null => {
  const v = value(c);
  return v === null ? null : [v, 1];
};
export const CASE_PAIR: Record<MetricKey, (c: CaseResult) => Pair | null> = Object.fromEntries(METRIC_ROWS.map((m) => [m.key, m.pool ?? overOne(m.value)])) as Record<MetricKey, (c: CaseResult) => Pair | null>;

export interface AggregateOptions {
  prices?: PriceTable;
  bootstrap?: BootstrapOptions;
  /** Names the group, so each group's resampling has its own stable seed. */
  group?: string;
}

export function aggregate(cases: readonly CaseResult[], opts: AggregateOptions = {}): Aggregate {
  const boot = opts.bootstrap ?? DEFAULT_BOOTSTRAP;
  // The resampling unit is the case: its trials under --repeat-each move together.
  const clusterIds = [...new Set(cases.map((c) => c.id))];
  const index = new Map(clusterIds.map((id, i) => [id, i]));
  const values = METRIC_KEYS.map((k) => {
    const perCluster: (Pair | null)[][] = clusterIds.map(() => []);
    for (const c of cases) perCluster[index.get(c.id)!]!.push(CASE_PAIR[k](c));
    return perCluster;
  });
  const intervals = bootstrapRatios(values, clusterIds.length, { ...boot, seed: seedOf(opts.group ?? 'overall', boot.seed) });
  const slots = cases.flatMap((c) => c.slots);
  const metric = {} as Record<MetricKey, number | null>;
  const ci = {} as Record<MetricKey, [number, number] | null>;
  const n = {} as Record<MetricKey, number>;
  METRIC_KEYS.forEach((k, i) => {
    const defined = cases.map(CASE_PAIR[k]).filter((v): v is Pair => v !== null);
    const den = defined.reduce((a, p) => a + p[1], 0);
    metric[k] = den > 0 ? defined.reduce((a, p) => a + p[0], 0) / den : null;
    ci[k] = intervals[i]!;
    n[k] = defined.length;
  });
  const usage = usageByRole(cases, opts.prices ?? {});
  const costs = Object.values(usage).map((u) => u.costUsd);
  return {
    ...metric,
    ci,
    n,
    cases: cases.length,
    blindCases: cases.filter((c) => c.blind === true).length,
    judgedSlots: slots.filter((s) => s.status === 'pass' || s.status === 'fail').length,
    unjudgedSlots: slots.filter((s) => s.status === 'unjudged').length,
    erroredSlots: slots.filter((s) => s.status === 'errored').length,
    erroredCases: cases.filter((c) => c.episodeStatus === 'errored').length,
    usage,
    costUsd: costs.some((c) => c === null) ? null : costs.reduce<number>((a, b) => a + (b ?? 0), 0),
  };
}

/** Tokens per role; a role's cost is unknown (null) as soon as one model it used has no price. */
export function usageByRole(cases: readonly CaseResult[], prices: PriceTable): Aggregate['usage'] {
  const out: Aggregate['usage'] = {};
  for (const e of cases.flatMap((c) => c.usage)) {
    const r = (out[e.role] ??= { prompt: 0, completion: 0, costUsd: 0 });
    // Unknown is not zero: one call without usage makes the role's tokens and cost unknown.
    r.prompt = r.prompt === null || e.unknown ? null : r.prompt + e.prompt;
    r.completion = r.completion === null || e.unknown ? null : r.completion + e.completion;
    const cost = e.unknown ? null : costOf(e.model, e, prices);
    r.costUsd = r.costUsd === null || cost === null ? null : r.costUsd + cost;
  }
  return Object.fromEntries(Object.keys(out).sort().map((k) => [k, out[k]!]));
}

/** Aggregates per value of a key, keys in sorted order so reports are stable under sharding. */
export function groupBy(cases: readonly CaseResult[], key: (c: CaseResult) => string, opts: AggregateOptions = {}): Record<string, Aggregate> {
  const groups = new Map<string, CaseResult[]>();
  for (const c of cases) {
    const k = key(c);
    groups.set(k, [...(groups.get(k) ?? []), c]);
  }
  return Object.fromEntries([...groups.keys()].sort(compareGroupKeys).map((k) => [k, aggregate(groups.get(k)!, { ...opts, group: `${opts.group ?? ''}/${k}` })]));
}

export function mean(values: readonly (number | null)[]): number | null {
  const defined = values.filter((v): v is number => v !== null);
  return defined.length === 0 ? null : defined.reduce((a, b) => a + b, 0) / defined.length;
}
