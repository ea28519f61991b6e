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
