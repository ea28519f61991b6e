import { dist, type Dist } from './dist.js';

/** One test result as Playwright's JSON report gives it: which worker ran it, and when. */
export interface TimedResult {
  workerIndex: number;
  parallelIndex: number;
  startMs: number;
  durationMs: number;
}

export interface WorkerStarts {
  /** Worker processes the run started (Playwright starts a new one after every failed test). */
  workers: number;
  /** Time on a parallel slot from one test's end to the next test's start when a new worker ran it: the old worker's cleanup, the new one's start, loading the config and the spec. */
  newWorkerGapMs: Dist;
  /** The same gap when the worker stayed: Playwright's own scheduling between two tests. */
  sameWorkerGapMs: Dist;
  /** The new-worker gaps summed, as a share of the run's worker time (wall time x workers). */
  shareOfWorkerTime: number | null;
}

/**
 * Where a failed slot's cost goes: Playwright discards a worker after a failed test, and the next test on
 * that slot waits for a new process. Measured from the report alone, so any run's JSON report can be read.
 */
export function workerStarts(results: readonly TimedResult[], wallMs: number, workers: number): WorkerStarts {
  const bySlot = new Map<number, TimedResult[]>();
  for (const r of results) {
    const list = bySlot.get(r.parallelIndex);
    if (list) list.push(r);
    else bySlot.set(r.parallelIndex, [r]);
  }
  const fresh: number[] = [];
  const same: number[] = [];
  for (const list of bySlot.values()) {
    list.sort((a, b) => a.startMs - b.startMs);
    for (let i = 1; i < list.length; i++) {
      const prev = list[i - 1]!;
      const next = list[i]!;
      const gap = Math.max(0, next.startMs - (prev.startMs + prev.durationMs));
      (next.workerIndex === prev.workerIndex ? same : fresh).push(gap);
    }
  }
  const total = fresh.reduce((a, b) => a + b, 0);
  return {
    workers: new Set(results.map((r) => r.workerIndex)).size,
    newWorkerGapMs: dist(fresh),
    sameWorkerGapMs: dist(same),
    shareOfWorkerTime: wallMs > 0 && workers > 0 ? Math.round((total / (wallMs * workers)) * 1000) / 1000 : null,
  };
}
