import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { VerdictCache, type VerdictKey } from '../judge/verdict-cache.js';
import { PAGE_UNRESPONSIVE_STEP } from '../site/unresponsive.js';
import type { Verdict } from '../protocol/verdict.js';

test('verdict cache: a decided verdict is kept for the rerun; errored, and a fail because the page did not answer in time, are judged again', async () => {
  const cache = new VerdictCache(await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-verdicts-')));
  const key = (slotId: string): VerdictKey => ({ siteHash: 'a'.repeat(64), slotId, slotHash: 'h', judgeModel: 'm', promptVersion: 'v', mode: 'slot' });
  const verdict = (status: Verdict['status'], steps: Verdict['steps'] = []): Verdict => ({ status, evidence: 'seen', judge: 'm', steps, durationMs: 1 });
  await cache.put(key('fail'), verdict('fail', [{ action: 'click', detail: 'nothing happened' }]));
  await cache.put(key('errored'), verdict('errored'));
  // A busy machine, not only a hung page, makes a page miss its time: that fail is not carried to the next run.
  await cache.put(key('hung'), verdict('fail', [{ action: PAGE_UNRESPONSIVE_STEP, detail: 'the page did not respond in 10 s: labelling the page took longer than 10 s' }]));
  assert.equal((await cache.get(key('fail')))?.status, 'fail');
  assert.equal(await cache.get(key('errored')), null);
  assert.equal(await cache.get(key('hung')), null);
  // Such a fail written by an older version is not read back either.
  const hungFile = cache.fileFor(key('hung'));
  await fs.mkdir(path.dirname(hungFile), { recursive: true });
  await fs.writeFile(hungFile, JSON.stringify({ key: key('hung'), verdict: verdict('fail', [{ action: PAGE_UNRESPONSIVE_STEP, detail: 'slow' }]) }));
  assert.equal(await cache.get(key('hung')), null);
});

test("verdict cache: a verdict read back carries no phases, the time of the run that made it (the bench counts only this run's)", async () => {
  const cache = new VerdictCache(await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-verdicts-')));
  const key: VerdictKey = { siteHash: 'b'.repeat(64), slotId: 's1', slotHash: 'h', judgeModel: 'm', promptVersion: 'v', mode: 'slot' };
  const phases = { open: 230, look: 300, model: 20, act: 350, looks: 2, acts: 1 };
  await cache.put(key, { status: 'pass', evidence: 'seen', judge: 'm', steps: [], durationMs: 900, phases });
  assert.equal((await cache.get(key))?.phases, undefined);
  assert.doesNotMatch(await fs.readFile(cache.fileFor(key), 'utf8'), /"phases"/);
  // A file written with them (by this change's first version) is read without them.
  await fs.writeFile(cache.fileFor(key), JSON.stringify({ key, verdict: { status: 'pass', evidence: 'seen', judge: 'm', steps: [], durationMs: 900, phases } }));
  const read = await cache.get(key);
  assert.equal(read?.status, 'pass');
  assert.equal(read?.phases, undefined);
});
