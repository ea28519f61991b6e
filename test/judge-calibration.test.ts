import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser } from '@playwright/test';
import { judgeCommand } from '../cli/judge.js';
import { agreement } from '../judge/agreement.js';
import { listCalibrationSites, runCalibration, summarise, type CalibrationSummary } from '../judge/calibrate.js';
import { createLlmJudge } from '../judge/llm-judge.js';
import { createProbeJudge } from '../judge/probe-judge.js';
import { ModelClient } from '../llm/client.js';
import { lastUserText, reply, start, type FakeServer } from '../llm/fake-server.js';
import { loadBuiltinTasks } from '../slots/builtin-loader.js';
import { buildDataset } from '../slots/load.js';
import { launch } from './judge-support.js';

let browser: Browser;
let fake: FakeServer;
before(async () => {
  [browser, fake] = await Promise.all([launch(), start()]);
});
after(async () => {
  await Promise.all([browser?.close(), fake?.close()]);
});

test('agreement: accuracy, precision and recall for fail, Cohen kappa', () => {
  const a = agreement([
    { expected: 'pass', got: 'pass' },
    { expected: 'pass', got: 'fail' },
    { expected: 'fail', got: 'fail' },
    { expected: 'fail', got: 'errored' },
  ]);
  assert.equal(a.accuracy, 0.5);
  assert.equal(a.precisionFail, 0.5);
  assert.equal(a.recallFail, 0.5);
  // po = 0.5; pe = 0.5 * 0.25 (pass) + 0.5 * 0.5 (fail) = 0.375
  assert.ok(Math.abs(a.kappa! - (0.5 - 0.375) / (1 - 0.375)) < 1e-12);
  assert.equal(a.errored, 1);
  assert.equal(agreement([{ expected: 'pass', got: 'pass' }]).kappa, 1);
});

test('every built-in task has its reference site and broken variants, each with an answer for every slot', async () => {
  const tasks = await loadBuiltinTasks();
  const sites = await listCalibrationSites(tasks);
  for (const t of tasks) {
    const mine = sites.filter((s) => s.taskId === t.id);
    assert.ok(mine.some((s) => s.variant === 'reference'), `${t.id} has a reference site`);
    const variants = mine.filter((s) => s.variant !== 'reference');
    assert.ok(variants.length >= 3, `${t.id} has at least three variants`);
    for (const v of variants) {
      assert.deepEqual(Object.keys(v.expected).sort(), t.slots.map((s) => s.id).sort(), `${t.id}/${v.variant} answers every slot`);
      assert.ok(Object.values(v.expected).includes('fail'), `${t.id}/${v.variant} breaks something`);
    }
  }
});

// The CLI covers one task end to end; the rest of the built-in sites go through runCalibration directly,
// so every reference site and variant is probed once without paying for the CLI's own browser twice.
const CLI_TASK = 'tip-calculator';

test('iwb judge calibrate --task: the probes score 100% on the reference site and its variants', async () => {
  const out: string[] = [];
  const code = await judgeCommand(['calibrate', '--json', '--task', CLI_TASK, '--concurrency', '3'], { out: (t) => out.push(t), err: (t) => out.push(t) });
  const summary = JSON.parse(out.join('\n')) as CalibrationSummary;
  assert.deepEqual(summary.misjudged, []);
  assert.equal(summary.probes.accuracy, 1);
  assert.deepEqual(Object.keys(summary.judges), [], 'no judge model is configured in tests');
  assert.equal(code, 0);
});

test('calibration: the probes score 100% on every other built-in reference site and variant', async () => {
  const tasks = (await loadBuiltinTasks()).filter((t) => t.id !== CLI_TASK);
  const cases = buildDataset('builtin', 'builtin', tasks).cases;
  const sites = await listCalibrationSites(tasks);
  const rows = await runCalibration({ browser, cases, sites, judges: [{ key: 'probe', judge: createProbeJudge(), slots: 'probed' }], concurrency: 3 });
  const summary = summarise(rows, 'probe', []);
  assert.deepEqual(summary.misjudged, []);
  assert.equal(summary.probes.accuracy, 1);
  assert.equal(summary.probes.slots, sites.reduce((n, s) => n + Object.keys(s.expected).length, 0));
});

test('a judge model gets accuracy, precision and recall for fail, and kappa', async () => {
  const tasks = (await loadBuiltinTasks()).filter((t) => t.id === 'tip-calculator');
  const cases = buildDataset('builtin', 'builtin', tasks).cases;
  const sites = (await listCalibrationSites(tasks)).filter((s) => s.variant === 'tip-orange');
  // Fails the teal-highlight slot (right: the variant's highlight is orange) and the first slot (wrong).
  fake.script((req) => reply.json({ thought: 'looked', action: { kind: 'verdict', status: /Slot (s6|s1) /.test(lastUserText(req)) ? 'fail' : 'pass', evidence: 'seen' } }));
  const client = new ModelClient({ role: 'judge', model: 'fake-judge', baseURL: fake.baseURL, apiKey: 'k' }, { retry: { retries: 0, timeoutMs: 10_000 } });
  const cacheDir = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-cal-verdicts-'));
  try {
    const rows = await runCalibration({ browser, cases, sites, judges: [{ key: 'fake-judge', judge: createLlmJudge({ client, cacheDir }), slots: 'all' }], concurrency: 3 });
    const s = summarise(rows, 'probe', ['fake-judge']).judges['fake-judge']!;
    const n = tasks[0]!.slots.length;
    assert.equal(s.accuracy, (n - 1) / n);
    assert.equal(s.precisionFail, 0.5);
    assert.equal(s.recallFail, 1);
    // Answers: n - 1 pass, 1 fail; judge: n - 2 pass, 2 fail.
    const po = (n - 1) / n, pe = ((n - 1) / n) * ((n - 2) / n) + (1 / n) * (2 / n);
    assert.ok(Math.abs(s.kappa! - (po - pe) / (1 - pe)) < 1e-12);
    assert.equal(fake.requests.length, n);
    assert.ok(!fake.requests.some((r) => lastUserText(r).includes('"s6": "fail"')), 'the answers are not served to the judge');
  } finally {
    await fs.rm(cacheDir, { recursive: true, force: true });
  }
});
