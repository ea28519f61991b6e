import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadSentence } from '../bench/summary.js';
import { workerStarts, type TimedResult } from '../bench/worker-starts.js';
import { slotTimes, type SlotRun } from '../bench/read-run.js';

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

test('bench: a slot judged ahead by its case\'s first slot test is given its judging time, and the judging test keeps the rest', () => {
  const run = (caseId: string, slotId: string, durationMs: number, judging?: { by: string; ms: number }, ranEpisodeMs: number | null = null): SlotRun => ({ caseId, slotId, durationMs, ...(judging ? { judging } : {}), timed: null, ranEpisodeMs, cachedVerdict: false });
  const runs = [
    // Case a: s1's test ran the episode (2,000 ms) and judged s1 (300), s2 (400) and s3 (500); s2 and s3 only read theirs.
    run('a', 's1', 3300, { by: 's1', ms: 300 }, 2000),
    // Every slot test of the case carries the episode's annotation (as the real report does): only s1's ran it.
    run('a', 's2', 20, { by: 's1', ms: 400 }, 2000),
    run('a', 's3', 30, { by: 's1', ms: 500 }, 2000),
    // Case b has a slot s1 too: a's judging is not taken from b's test.
    run('b', 's1', 900, { by: 's1', ms: 800 }),
    // A report of a run that judged in each slot's own test: the test's time, less its episode.
    run('c', 's1', 1500, undefined, 1000),
  ];
  assert.deepEqual(slotTimes(runs), [400, 420, 530, 900, 500]);
  // Nothing is lost or counted twice: the times add up to the tests' time less the episodes.
  assert.equal(slotTimes(runs).reduce((a, b) => a + b, 0), runs.reduce((a, r) => a + r.durationMs, 0) - 2000 - 1000);
});
