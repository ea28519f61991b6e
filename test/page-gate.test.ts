import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PAGE_WORK_WIDTH } from '../site/page-gate.js';
import { Semaphore } from '../protocol/semaphore.js';
import { PageUnresponsive } from '../site/unresponsive.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A unit of page work with a limit, as the judge's are: its clock starts inside the unit. */
async function limited(ms: number, takes: number): Promise<string> {
  const t0 = Date.now();
  await sleep(takes);
  if (Date.now() - t0 > ms) throw new PageUnresponsive(`took longer than ${ms} ms`);
  return 'done';
}

test('page gate: at most its width at once, first come first served, and a unit queued behind others is not timed while it waits', async () => {
  const gate = new Semaphore(2);
  const order: number[] = [];
  let now = 0;
  const units = Array.from({ length: 8 }, (_, i) =>
    gate.run(async () => {
      order.push(i);
      now++;
      assert.ok(now <= 2, `${now} at once`);
      // Each unit alone is well within its limit; queued behind 7 others it waits far longer than the limit.
      const r = await limited(120, 60);
      now--;
      return r;
    }),
  );
  assert.deepEqual(await Promise.all(units), Array(8).fill('done'), 'no unit was failed for time it spent queued');
  assert.deepEqual(order, [0, 1, 2, 3, 4, 5, 6, 7]);
  assert.equal(gate.peak, 2);
});

test('page gate: a unit that throws passes its turn on', async () => {
  const gate = new Semaphore(1);
  await assert.rejects(gate.run(async () => { throw new Error('page broke'); }), /page broke/);
  assert.equal(await gate.run(async () => 'next'), 'next');
  assert.ok(PAGE_WORK_WIDTH >= 2);
});
