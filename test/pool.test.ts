import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runPool, type PoolJob } from './pool.js';

/** A job that records when it runs, and ends when the test says so. */
function job(name: string, weight: number, log: string[], inFlight: { now: number; max: number }): PoolJob & { end: () => void } {
  let end: () => void = () => undefined;
  const done = new Promise<void>((r) => (end = r));
  return {
    weight,
    end: () => end(),
    run: async () => {
      inFlight.now += weight;
      inFlight.max = Math.max(inFlight.max, inFlight.now);
      log.push(`start ${name}`);
      await done;
      inFlight.now -= weight;
      log.push(`end ${name}`);
    },
  };
}

const tick = () => new Promise((r) => setImmediate(r));

test('the pool starts jobs in order while their weights fit, and a heavy job waits for room without being overtaken', async () => {
  const log: string[] = [];
  const inFlight = { now: 0, max: 0 };
  const [a, b, heavy, c] = [job('a', 1, log, inFlight), job('b', 1, log, inFlight), job('heavy', 2, log, inFlight), job('c', 1, log, inFlight)];
  const all = runPool([a!, b!, heavy!, c!], 2);
  await tick();
  assert.deepEqual(log, ['start a', 'start b']);
  a!.end();
  await tick();
  assert.deepEqual(log.slice(2), ['end a'], 'the heavy job waits for both cores, and c does not overtake it');
  b!.end();
  await tick();
  assert.deepEqual(log.slice(3), ['end b', 'start heavy']);
  heavy!.end();
  await tick();
  c!.end();
  await all;
  assert.deepEqual(log.slice(5), ['end heavy', 'start c', 'end c']);
  assert.equal(inFlight.max, 2, 'never more than the capacity at once');
});

test('a job heavier than the capacity runs alone; no jobs is done at once; a failing job rejects the pool', async () => {
  const log: string[] = [];
  const inFlight = { now: 0, max: 0 };
  const huge = job('huge', 5, log, inFlight);
  const all = runPool([huge], 2);
  await tick();
  assert.deepEqual(log, ['start huge']);
  huge.end();
  await all;
  await runPool([], 2);
  await assert.rejects(runPool([{ weight: 1, run: () => Promise.reject(new Error('boom')) }], 2), /boom/);
});
