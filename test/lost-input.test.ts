import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { compareCommand } from '../cli/compare.js';
import { UsageError } from '../cli/io.js';
import { main } from '../cli/main.js';
import { maxErroredOf } from '../cli/max-errored.js';
import { summarise, type CalibrationRow } from '../judge/calibrate.js';
import { keepRunRecords, type RecordWithExtras } from '../reporters/run-records.js';
import { judgeLoss, NO_TOLERANCE, toleranceOf } from '../stats/lost-input.js';
import { capture } from './cli-capture.js';
import { records, reportOf, type CaseSpec } from './report-support.js';

let tmp: string;
before(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-lost-input-'));
});
after(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

/** 10 cases of 3 slots; `errored` of the 30 slots errored (a judge call that failed), the rest passed. */
function cases(errored: number): CaseSpec[] {
  return Array.from({ length: 10 }, (_, j) => ({ id: `t${j}_P-MIN`, agent: 'a1', positives: [0, 1, 2].map((s) => (j * 3 + s < errored ? 'errored' : 'pass')) }));
}

test('the rule: any errored input fails unless a stated share is tolerated, and the line names the tolerance', () => {
  assert.deepEqual(judgeLoss({ errored: 0, total: 30, unit: 'slots' }, NO_TOLERANCE), { ok: true, share: 0, line: null });
  const none = judgeLoss({ errored: 1, total: 30, unit: 'slots' }, NO_TOLERANCE);
  assert.equal(none.ok, false);
  assert.match(none.line!, /^1 of 30 slots errored \(3\.3%\), left out of every figure, so the figures lost input: over the none tolerated; exit 1/);
  const five = toleranceOf('5%', '--max-errored');
  assert.equal(five.share, 0.05);
  assert.equal(judgeLoss({ errored: 5, total: 100, unit: 'turns' }, five).ok, true, '5 of 100 is within 5%');
  assert.match(judgeLoss({ errored: 5, total: 100, unit: 'turns' }, five).line!, /within the 5% tolerated \(--max-errored 5%\)/);
  assert.equal(judgeLoss({ errored: 6, total: 100, unit: 'turns' }, five).ok, false);
  assert.match(judgeLoss({ errored: 0, total: 100, unit: 'turns' }, five).line!, /no turns errored; 5% tolerated/);
  assert.equal(toleranceOf('2.5', 'x').share, 0.025);
  for (const bad of ['five', '-1%', '101%', '5 %%']) assert.throws(() => toleranceOf(bad, '--max-errored'), /--max-errored (must be|needs)/, bad);
});

test('one parser for the flag and the run setting: --max-errored wins over IWB_MAX_ERRORED, a bad value names its source', () => {
  assert.deepEqual(maxErroredOf(new Map(), {}), NO_TOLERANCE);
  assert.deepEqual(maxErroredOf(new Map(), { IWB_MAX_ERRORED: '5%' }), { share: 0.05, from: 'IWB_MAX_ERRORED' });
  assert.deepEqual(maxErroredOf(new Map([['max-errored', '1%']]), { IWB_MAX_ERRORED: '5%' }), { share: 0.01, from: '--max-errored' });
  assert.throws(() => maxErroredOf(new Map([['max-errored', 'lots']]), {}), (e: Error) => e instanceof UsageError && /--max-errored must be a percentage/.test(e.message));
  assert.throws(() => maxErroredOf(new Map(), { IWB_MAX_ERRORED: 'lots' }), /IWB_MAX_ERRORED: must be a percentage/);
});

test('iwb report exits 1 on a run whose slots errored, and 0 with --max-errored over the share, naming it', async () => {
  const runDir = path.join(tmp, 'runs');
  const recs: RecordWithExtras[] = cases(1).flatMap(records).map((r) => ({ ...r, images: [] }));
  const meta = { startedAt: '2026-01-02T03:04:05.000Z', durationMs: 1, dataset: 'test', agents: ['a1'], playwrightStatus: 'failed', profile: 'iwb', sandbox: 'bwrap' };
  await keepRunRecords(runDir, { runId: 'r1', meta, interrupted: false, records: recs });
  const strict = capture();
  assert.equal(await main(['report', runDir, '--out', path.join(tmp, 'strict')], strict), 1, strict.errText());
  assert.match(strict.outText(), /1 of 30 slots errored \(3\.3%\), left out of every figure, so the figures lost input/);
  assert.match(strict.errText(), /iwb report: 1 of 30 slots errored/);
  const tolerant = capture();
  assert.equal(await main(['report', runDir, '--out', path.join(tmp, 'tolerant'), '--max-errored', '5%'], tolerant), 0, tolerant.errText());
  assert.match(tolerant.outText(), /1 of 30 slots errored \(3\.3%\), left out of every figure; within the 5% tolerated \(--max-errored 5%\)/);
  const json = capture();
  assert.equal(await main(['report', runDir, '--out', path.join(tmp, 'json'), '--json'], json), 1);
  assert.deepEqual((JSON.parse(json.outText()) as { ok: boolean; erroredSlots: number }).erroredSlots, 1);
});

test('iwb compare exits 1 when a ranked run lost input, names the run, and tolerates a stated share', async () => {
  const clean = path.join(tmp, 'clean.json');
  const lossy = path.join(tmp, 'lossy.json');
  await fs.writeFile(clean, JSON.stringify(reportOf(cases(0))));
  await fs.writeFile(lossy, JSON.stringify(reportOf(cases(3))));
  const ok = capture();
  assert.equal(await compareCommand([clean, clean], ok), 0, ok.errText());
  const strict = capture();
  assert.equal(await compareCommand([clean, lossy], strict), 1);
  assert.ok(strict.errText().includes(`${lossy}: 3 of 30 slots errored (10%)`), strict.errText());
  assert.match(strict.outText(), /ranked by TCR/, 'the leaderboard is still shown');
  const loose = capture();
  assert.equal(await compareCommand([clean, lossy, '--max-errored', '10%'], loose), 0, loose.errText());
  assert.match(loose.outText(), /lossy\.json: 3 of 30 slots errored \(10%\), left out of every figure; within the 10% tolerated/);
  const json = capture();
  assert.equal(await compareCommand([clean, lossy, '--json'], json), 1);
  const lost = (JSON.parse(json.outText()) as { lostInput: Array<{ file: string; ok: boolean }> }).lostInput;
  assert.deepEqual(lost.map((l) => l.ok), [true, false]);
});

test('calibration leaves a judge model\'s errored verdicts out of its figures and counts them apart', () => {
  const row = (slotId: string, expected: 'pass' | 'fail', got: 'pass' | 'fail' | 'errored'): CalibrationRow =>
    ({ taskId: 't1', variant: 'reference', slotId, cTech: 1, assertionType: 'POSITIVE', expected, got: { probe: { status: expected, evidence: '' }, m: { status: got, evidence: '' } } }) as CalibrationRow;
  const s = summarise([row('a', 'pass', 'pass'), row('b', 'fail', 'fail'), row('c', 'fail', 'errored'), row('d', 'pass', 'errored')], 'probe', ['m']);
  assert.equal(s.judges.m!.accuracy, 1, 'two verdicts given, both right; the failed calls are not wrong answers');
  assert.equal(s.judges.m!.slots, 4);
  assert.equal(s.judges.m!.errored, 2);
  assert.equal(s.stats.m!.overall.slots, 2);
});
