import { z } from 'zod';

/** A span of time in ms since the run started: a model call waiting on its reply, or an episode from first to last agent call. */
export interface Span {
  start: number;
  end: number;
}

export const InFlightSchema = z.object({
  /** Time-weighted mean over the run's wall time. */
  mean: z.number(),
  max: z.number().int(),
  /** The time-weighted mean in each tenth of the run, first to last. */
  timeline: z.array(z.number()),
});
export type InFlight = z.infer<typeof InFlightSchema>;

const round1 = (v: number) => Math.round(v * 10) / 10;

/**
 * How many spans were open at once over [0, wallMs]: exact, by sweeping the spans' ends in time order, so a
 * short call between two samples is never missed.
 */
export function inFlight(spans: readonly Span[], wallMs: number, buckets = 10): InFlight {
  const edges = spans.flatMap((s) => [
    { t: Math.max(0, Math.min(wallMs, s.start)), d: 1 },
    { t: Math.max(0, Math.min(wallMs, s.end)), d: -1 },
  ]);
  // At one instant an end before a start: a call that ends as the next begins is not two at once.
  edges.sort((a, b) => a.t - b.t || a.d - b.d);
  const width = wallMs / buckets;
  const area = new Array<number>(buckets).fill(0);
  let open = 0;
  let max = 0;
  let last = 0;
  const add = (from: number, to: number, n: number) => {
    for (let b = Math.floor(from / width); b < buckets && b * width < to; b++) {
      const lo = Math.max(from, b * width);
      const hi = Math.min(to, (b + 1) * width);
      if (hi > lo) area[b]! += (hi - lo) * n;
    }
  };
  for (const e of edges) {
    if (wallMs > 0) add(last, e.t, open);
    last = e.t;
    open += e.d;
    max = Math.max(max, open);
  }
  const total = area.reduce((s, a) => s + a, 0);
  return { mean: wallMs > 0 ? round1(total / wallMs) : 0, max, timeline: area.map((a) => (width > 0 ? round1(a / width) : 0)) };
}
