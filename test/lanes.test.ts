import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inLanes, judgeLane } from '../fixtures/lanes.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('lanes: each lane at most its width at once, lanes side by side, outcomes in the list order whatever order they finished in', async () => {
  const items = ['m1', 'p1', 'm2', 'm3', 'p2', 'm4', 'm5'];
  const running = { m: 0, p: 0 };
  const most = { m: 0, p: 0, both: 0 };
  const started: string[] = [];
  const out = await inLanes(
    items,
    (item) => (item.startsWith('m') ? { name: 'model', width: 3 } : { name: 'one', width: 1 }),
    async (item, i) => {
      const lane = item[0] as 'm' | 'p';
      started.push(item);
      running[lane]++;
      most[lane] = Math.max(most[lane], running[lane]);
      most.both = Math.max(most.both, running.m + running.p);
      await sleep(item === 'm1' ? 60 : 10);
      running[lane]--;
      if (item === 'm3') throw new Error('m3 broke');
      return `${item}@${i}`;
    },
  );
  assert.deepEqual(most, { m: 3, p: 1, both: 4 });
  assert.deepEqual(started.filter((s) => s.startsWith('p')), ['p1', 'p2'], 'a lane takes its items in order');
  assert.deepEqual(started.slice(0, 4), ['m1', 'm2', 'm3', 'p1'], 'each lane starts its first items at once');
  assert.deepEqual(out.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message)), ['m1@0', 'p1@1', 'm2@2', 'm3 broke', 'p2@4', 'm4@5', 'm5@6']);
});

test('lanes: a width below 1 is 1, and an empty list is no work', async () => {
  let most = 0;
  let now = 0;
  await inLanes([1, 2, 3], () => ({ name: 'x', width: 0 }), async () => {
    most = Math.max(most, ++now);
    await sleep(5);
    now--;
  });
  assert.equal(most, 1);
  assert.deepEqual(await inLanes([], () => ({ name: 'x', width: 2 }), async () => 1), []);
});

test('judge lanes: model-judged slots of a stateless site go several at once; a server the agent wrote, a probe or no judge model, one at a time', () => {
  const model = { judgeModel: true, width: 4 };
  for (const siteMode of ['static', 'build', 'error'] as const) assert.deepEqual(judgeLane({}, { ...model, siteMode }), { name: 'model', width: 4 }, siteMode);
  // A dev or start server may keep state (a list, a cart) that one session's clicks change under another's.
  for (const siteMode of ['dev', 'start'] as const) assert.equal(judgeLane({}, { ...model, siteMode }).width, 1, siteMode);
  assert.equal(judgeLane({ probe: { steps: [] } }, { ...model, siteMode: 'static' }).width, 1, 'a probe');
  assert.equal(judgeLane({}, { ...model, judgeModel: false, siteMode: 'static' }).width, 1, 'no judge model');
});
