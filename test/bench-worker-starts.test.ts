import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadSentence } from '../bench/summary.js';
import { workerStarts, type TimedResult } from '../bench/worker-starts.js';

test('bench: worker starts are read from which worker ran each test and when, per parallel slot', () => {
  const r = (workerIndex: number, parallelIndex: number, startMs: number, durationMs: number): TimedResult => ({ workerIndex, parallelIndex, startMs, durationMs });
  const results = [
    // Slot 0: worker 0 runs two tests (10 ms apart), fails the second; worker 2 starts 1,500 ms later.
    r(0, 0, 0, 100),
    r(0, 0, 110, 100),
    r(2, 0, 1710, 100),
    // Slot 1: worker 1 fails its first test; worker 3 starts 2,500 ms later. Listed out of order on purpose.
    r(3, 1, 2600, 100),
    r(1, 1, 0, 100),
  ];
  const w = workerStarts(results, 3000, 2);
  assert.equal(w.workers, 4);
  assert.deepEqual(w.newWorkerGapMs, { n: 2, median: 1500, p95: 2500 });
  assert.deepEqual(w.sameWorkerGapMs, { n: 1, median: 10, p95: 10 });
  assert.equal(w.shareOfWorkerTime, 0.667, "(1500 + 2500) / 6000, to a tenth of a percent");
  assert.equal(workerStarts([], 0, 2).shareOfWorkerTime, null);
});

test("bench: only the load at the start can flag other work; the end load is the bench's own", () => {
  assert.doesNotMatch(loadSentence({ start: 0.4, end: 5.8 }, 2), /other work/);
  assert.match(loadSentence({ start: 0.4, end: 5.8 }, 2), /5\.8 at the end \(the bench's own included\)/);
  assert.match(loadSentence({ start: 3.1, end: 1 }, 2), /other work was running/);
});
