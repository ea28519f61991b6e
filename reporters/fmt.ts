import { METRIC, type MetricKey } from './metric-table.js';
import type { Aggregate } from './report-schema.js';

/** A metric as the tables print it: shares in percent, the rest as its row says; — when undefined. */
export function fmt(a: Aggregate, k: MetricKey, withCi = false): string {
  const v = a[k];
  if (v === null) return '—';
  const m = METRIC[k];
  const scale = m.unit === 'percent' ? 100 : 1;
  const main = (v * scale).toFixed(m.digits);
  const ci = a.ci[k];
  return withCi && ci ? `${main} [${(ci[0] * scale).toFixed(m.digits)}, ${(ci[1] * scale).toFixed(m.digits)}]` : main;
}

/** A role's tokens: "unknown" when some call's provider gave no usage object (null), never 0. */
export function tokensText(u: { prompt: number | null; completion: number | null }): string {
  return u.prompt === null || u.completion === null ? 'unknown' : (u.prompt + u.completion).toLocaleString('en-US');
}

/** Why a cost is unknown, or null when it is known. */
export function costUnknownWhy(a: Pick<Aggregate, 'costUsd' | 'usage'>): string | null {
  if (a.costUsd !== null) return null;
  return Object.values(a.usage).some((u) => u.prompt === null) ? 'a provider gave no token usage' : 'a model has no price: set IWB_PRICES';
}

/** A cost cell: dollars, or "unknown". */
export const costCell = (costUsd: number | null, digits = 4): string => (costUsd === null ? 'unknown' : costUsd.toFixed(digits));
