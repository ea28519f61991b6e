import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { main } from '../cli/main.js';
import { readReport } from '../reporters/report-schema.js';
import { keepRunRecords, readRunRecords, type RecordWithExtras } from '../reporters/run-records.js';
import { capture } from './cli-capture.js';
import { episodeAnnotation, records } from './report-support.js';

let tmp: string;
before(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-rescore-'));
});
after(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

const META = { startedAt: '2026-01-02T03:04:05.000Z', durationMs: 1234, dataset: 'test-dataset', agents: ['a1'], playwrightStatus: 'failed', profile: 'iwb', sandbox: 'bwrap' };

/**
 * A case judged under iwb: s1 passed, s2 was never mentioned by the judge's session (errored under iwb), and
 * the trajectory holds no reasoning text though the intent judge scored it 4.
 */
function judgedUnderIwb(): RecordWithExtras[] {
  const [s1, s2] = records({ id: 'c1', agent: 'a1', positives: ['pass', 'errored'] });
  const episode = episodeAnnotation({ agent: 'a1', hasReasoning: false, intent: { ias: 4, hitSlots: [], model: 'judge', tokens: { prompt: 1, completion: 1 } } });
  return [
    { ...s1!, episode, images: [] },
    { ...s2!, episode, unmentioned: true, evidence: 'the judge never said', images: [] },
  ];
}

async function rescore(runDir: string, ...flags: string[]) {
  const out = path.join(tmp, `out-${flags.join('') || 'same'}`);
  const io = capture();
  // The unmentioned slot is errored under iwb: the re-score lost input, tolerated here (test/lost-input.test.ts checks the exit).
  const code = await main(['report', runDir, '--out', out, '--max-errored', '50%', ...flags], io);
  assert.equal(code, 0, io.errText());
  return { report: await readReport(path.join(out, 'report.json')), text: io.outText() };
}

test('iwb report --profile paper applies paper\'s scoring rules to a run judged under iwb, and says which rules did not run', async () => {
  const runDir = path.join(tmp, 'runs');
  await keepRunRecords(runDir, { runId: 'r1', meta: META, interrupted: false, records: judgedUnderIwb() });

  const same = await rescore(runDir);
  assert.equal(same.report.meta.profile, 'iwb');
  assert.deepEqual(same.report.cases[0]!.slots.map((s) => s.status), ['pass', 'errored']);
  assert.equal(same.report.cases[0]!.tcr, 1, 'an unmentioned slot is the harness\'s gap under iwb: left out');
  assert.equal(same.report.cases[0]!.ias, null, 'iwb leaves IAS unscored without reasoning text');

  const paper = await rescore(runDir, '--profile', 'paper');
  assert.equal(paper.report.meta.profile, 'paper');
  assert.deepEqual(paper.report.cases[0]!.slots.map((s) => s.status), ['pass', 'fail']);
  assert.equal(paper.report.cases[0]!.slots[1]!.unmentioned, true, 'the marker stays: it was never a finding');
  assert.equal(paper.report.cases[0]!.tcr, 0.5, 'paper fails an unmentioned slot');
  assert.equal(paper.report.cases[0]!.ias, 1, 'paper scores IAS 1 without reasoning text');
  assert.equal(paper.report.meta.rescored?.runProfile, 'iwb');
  assert.match(paper.report.meta.rescored?.note ?? '', /judging rules did not run \(.*crashRule.*\)/);
  assert.match(paper.text, /scored under paper from a run judged under iwb/);

  // And back: a paper report re-scored under iwb is iwb's again.
  const back = path.join(tmp, 'runs-back');
  await keepRunRecords(back, { runId: 'r2', meta: { ...META, profile: 'paper' }, interrupted: false, records: judgedUnderIwb().map((r) => (r.unmentioned ? { ...r, status: 'fail' as const } : r)) });
  const iwb = await rescore(back, '--profile', 'iwb');
  assert.deepEqual(iwb.report.cases[0]!.slots.map((s) => s.status), ['pass', 'errored']);
});

test('the run folder\'s newest scored run is read unless --run names one; images come back where they were kept', async () => {
  const runDir = path.join(tmp, 'two-runs');
  const png = path.join(tmp, 'shot.png');
  await fs.writeFile(png, 'not really a png');
  const withImage = judgedUnderIwb().map((r) => ({ ...r, images: [{ name: 'screenshot', path: png }] }));
  await keepRunRecords(runDir, { runId: 'old', meta: { ...META, agents: ['old'] }, interrupted: false, records: withImage });
  await new Promise((r) => setTimeout(r, 20));
  await keepRunRecords(runDir, { runId: 'new', meta: { ...META, agents: ['new'] }, interrupted: true, records: withImage });
  await fs.rm(png);
  const newest = await readRunRecords(runDir);
  assert.equal(newest.run.runId, 'new');
  assert.equal(newest.run.interrupted, true);
  assert.equal(await fs.readFile(newest.records[0]!.images[0]!.path!, 'utf8'), 'not really a png', 'kept in the run folder, not pointing at the test output');
  assert.equal((await readRunRecords(runDir, 'old')).run.meta.agents[0], 'old');
  const io = capture();
  assert.equal(await main(['report', path.join(tmp, 'nothing-here')], io), 2);
  assert.match(io.errText(), /holds no scored run/);
});
