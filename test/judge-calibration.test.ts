import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser } from '@playwright/test';
import { judgeCommand } from '../cli/judge.js';
import { agreement } from '../judge/agreement.js';
import { listCalibrationSites, runCalibration, summarise, type CalibrationRow, type CalibrationSummary } from '../judge/calibrate.js';
import { agreementWithCi } from '../judge/calibration-stats.js';
import { DEFAULT_BOOTSTRAP } from '../stats/intervals.js';
import { createLlmJudge } from '../judge/llm-judge.js';
import { ModelClient } from '../llm/client.js';
import { lastUserText, reply, start, type FakeServer } from '../testkit/fake-server.js';
import { loadBuiltinTasks } from '../slots/builtin-loader.js';
import { buildDataset } from '../slots/load.js';
import { launch } from './judge-support.js';
import { calibrationPartTest, CLI_TASK } from './calibration-part.js';

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

test('calibration statistics: task-clustered bootstrap intervals, breakdowns by c_tech and assertion type', () => {
  // Ten tasks, one verdict each per c_tech; the judge misses every NEGATIVE fail on the first four tasks.
  const rows: CalibrationRow[] = [];
  for (let t = 0; t < 10; t++) {
    for (const [slotId, cTech, type, expected] of [['a', 1, 'POSITIVE', 'pass'], ['b', 2, 'POSITIVE', 'fail'], ['c', 3, 'NEGATIVE', 'fail']] as const) {
      const got = type === 'NEGATIVE' && t < 4 ? 'pass' : expected;
      rows.push({ taskId: `t${t}`, variant: 'v', slotId, cTech, assertionType: type, expected, got: { probe: { status: expected, evidence: '' }, m: { status: got, evidence: '' } } });
    }
  }
  const s = summarise(rows, 'probe', ['m']);
  const m = s.stats.m!;
  assert.equal(m.overall.slots, 30);
  assert.ok(Math.abs(m.overall.accuracy - 26 / 30) < 1e-12);
  assert.equal(m.overall.tasks, 10);
  const [lo, hi] = m.overall.ci.accuracy!;
  assert.ok(lo < 26 / 30 && 26 / 30 < hi && hi <= 1, `interval around the estimate: ${lo} ${hi}`);
  assert.equal(m.byCTech['3']!.recallFail, 0.6);
  assert.equal(m.byCTech['1']!.recallFail, null, 'no slot of c_tech 1 should fail');
  assert.equal(m.byCTech['1']!.ci.recallFail, null);
  assert.equal(m.byAssertionType.POSITIVE!.accuracy, 1);
  assert.equal(m.byAssertionType.NEGATIVE!.accuracy, 0.6);
  assert.deepEqual(s.judges.m, { accuracy: m.overall.accuracy, precisionFail: 1, recallFail: m.overall.recallFail, kappa: m.overall.kappa, slots: m.overall.slots, errored: 0, accuracyJudged: m.overall.accuracy });
  // Seeded: the same verdicts give the same interval. The resampling unit is the task: treating the 30
  // verdicts as independent gives another interval.
  assert.deepEqual(summarise(rows, 'probe', ['m']).stats.m!.overall.ci, m.overall.ci);
  const perVerdict = agreementWithCi(rows.map((r, i) => ({ expected: r.expected, got: r.got.m!.status, cluster: String(i) })), DEFAULT_BOOTSTRAP, 'm');
  assert.equal(perVerdict.tasks, 30);
  assert.notDeepEqual(perVerdict.ci.accuracy, m.overall.ci.accuracy);
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

// The CLI covers one task end to end; the rest of the built-in sites go through runCalibration directly
// (test/calibration-part.ts), so every reference site and variant is probed once without paying for the CLI's own browser twice.
test('iwb judge calibrate --task: the probes score 100% on the reference site and its variants', async () => {
  const out: string[] = [];
  const code = await judgeCommand(['calibrate', '--json', '--task', CLI_TASK, '--concurrency', '3'], { out: (t) => out.push(t), err: (t) => out.push(t) });
  const summary = JSON.parse(out.join('\n')) as CalibrationSummary;
  assert.deepEqual(summary.misjudged, []);
  assert.equal(summary.probes.accuracy, 1);
  assert.deepEqual(Object.keys(summary.judges), [], 'no judge model is configured in tests');
  assert.equal(code, 0);
});

calibrationPartTest(0, 2, () => browser);

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
