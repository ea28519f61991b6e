import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { compareCommand } from '../cli/compare.js';
import { capture } from './cli-capture.js';
import { compareRuns, pairedDifference, runLabels, type Comparison, type RunInput } from '../reporters/compare.js';
import { DEFAULT_BOOTSTRAP } from '../stats/intervals.js';
import { reportOf, type CaseSpec } from './report-support.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** n cases, case j passing `passed(j)` of `slots` POSITIVE slots; ids are shared between runs that use this. */
function run(agent: string, n: number, slots: number, passed: (j: number) => number): CaseSpec[] {
  return Array.from({ length: n }, (_, j) => ({
    id: `t${j}_P-MIN`,
    agent,
    positives: Array.from({ length: slots }, (_, s) => (s < passed(j) ? 'pass' : 'fail')),
    negatives: [j % 4 === 0 ? 'fail' : 'pass'],
  }));
}

const runOf = (file: string, cases: CaseSpec[]): RunInput => ({ file, report: reportOf(cases) });
const overlaps = (a: [number, number], b: [number, number]) => a[0] <= b[1] && b[0] <= a[1];

test('two runs that clearly differ are ranked and separable by the paired bootstrap', () => {
  const c = compareRuns([runOf('runs/weak/report.json', run('weak', 20, 3, (j) => j % 2)), runOf('runs/strong/report.json', run('strong', 20, 3, (j) => 2 + (j % 2)))]);
  assert.deepEqual(c.rows.map((r) => [r.label, r.rank]), [['strong @ strong', 1], ['weak @ weak', 2]]);
  const [p] = c.pairs;
  assert.equal(p!.method, 'paired');
  assert.equal(p!.shared, 20);
  assert.ok(Math.abs(p!.diff! - 2 / 3) < 1e-9, `diff ${p!.diff}`);
  assert.ok(p!.ci![0] > 0, `interval ${p!.ci} excludes 0`);
  assert.equal(p!.separable, true);
});

test('two nearly identical runs are not separable', () => {
  const c = compareRuns([runOf('a/report.json', run('x', 20, 3, (j) => j % 4)), runOf('b/report.json', run('x', 20, 3, (j) => (j === 5 ? 3 : j % 4)))]);
  assert.deepEqual(c.rows.map((r) => r.label), ['x @ b', 'x @ a']);
  const [p] = c.pairs;
  assert.equal(p!.method, 'paired');
  assert.ok(p!.diff! > 0);
  assert.ok(p!.ci![0] <= 0 && p!.ci![1] >= 0, `interval ${p!.ci} contains 0`);
  assert.equal(p!.separable, false);
});

test('pairing separates a small, consistent gain that the two unpaired intervals cannot', () => {
  // Case difficulty spreads scores over 0-90%; on every other case A passes one more slot than B.
  const b = run('B', 40, 10, (j) => j % 10);
  const a = run('A', 40, 10, (j) => (j % 10) + (j % 2));
  const c = compareRuns([runOf('b.json', b), runOf('a.json', a)]);
  assert.deepEqual(c.rows.map((r) => r.agent), ['A', 'B']);
  assert.ok(overlaps(c.rows[0]!.tcrCi!, c.rows[1]!.tcrCi!), 'the unpaired intervals overlap');
  assert.equal(c.pairs[0]!.separable, true, `paired interval ${c.pairs[0]!.ci}`);
});

test('without shared cases separability falls back to interval overlap', () => {
  const shifted = (cases: CaseSpec[], prefix: string) => cases.map((x) => ({ ...x, id: `${prefix}${x.id}` }));
  const apart = compareRuns([runOf('a.json', shifted(run('lo', 20, 3, () => 0), 'a')), runOf('b.json', shifted(run('hi', 20, 3, () => 3), 'b'))]);
  assert.equal(apart.pairs[0]!.method, 'overlap');
  assert.equal(apart.pairs[0]!.shared, 0);
  assert.equal(apart.pairs[0]!.diff, 1);
  assert.equal(apart.pairs[0]!.separable, true);
  const close = compareRuns([runOf('a.json', shifted(run('p', 20, 3, (j) => j % 4), 'a')), runOf('b.json', shifted(run('q', 20, 3, (j) => (j + 1) % 4), 'b'))]);
  assert.equal(close.pairs[0]!.method, 'overlap');
  assert.equal(close.pairs[0]!.separable, false);
});

test('the paired difference resamples cases with their trials and ignores cases only one side scored', () => {
  const a = reportOf([...run('a', 3, 2, () => 2), { id: 't0_P-MIN', agent: 'a', trial: 1, positives: ['pass', 'pass'] }, { id: 'only_P-MIN', agent: 'a', positives: ['fail'] }]).cases;
  const b = reportOf([...run('b', 3, 2, () => 1), { id: 't0_P-MIN', agent: 'b', trial: 1, positives: ['errored'] }]).cases;
  const d = pairedDifference(a, b, (x) => x.tcr, DEFAULT_BOOTSTRAP);
  assert.equal(d.shared, 3, 'trial 1 of t0 has no TCR in b and only_P-MIN is not in b');
  assert.equal(d.diff, 0.5);
  assert.deepEqual(d.ci, [0.5, 0.5]);
  assert.deepEqual(pairedDifference(a, [], (x) => x.tcr, DEFAULT_BOOTSTRAP), { diff: null, ci: null, shared: 0 });
});

test('HR ranks ascending, and Kendall tau-b sees a ranking that the weighting reverses', () => {
  // X passes the heavy slot, Y the two light ones: paper weights favour X, uniform weights Y.
  const spec = (agent: string, statuses: CaseSpec['positives']): CaseSpec[] =>
    Array.from({ length: 4 }, (_, j) => ({ id: `w${j}_P-MIN`, agent, positives: statuses, weights: [3, 1, 1], negatives: [agent === 'Y' || j === 0 ? 'fail' : 'pass'] }));
  const runs = [runOf('x.json', spec('X', ['pass', 'fail', 'fail'])), runOf('y.json', spec('Y', ['fail', 'pass', 'pass']))];
  const tcr = compareRuns(runs);
  assert.deepEqual(tcr.rows.map((r) => r.agent), ['X', 'Y']);
  assert.equal(tcr.kendallTau.uniform, -1);
  assert.equal(tcr.kendallTau.cTech, -1, 'every c_tech is 1 here, so c_tech-only weighting is uniform');
  const hr = compareRuns(runs, { metric: 'hr' });
  assert.deepEqual(hr.rows.map((r) => [r.agent, r.hr]), [['X', 0.25], ['Y', 1]]);
});

test('runs are labelled by folder or file name, and by path when names collide', () => {
  assert.deepEqual(runLabels(['runs/gpt/iwb-report/report.json', 'claude.json']), ['iwb-report', 'claude']);
  assert.deepEqual(runLabels(['a/iwb-report/report.json', 'b/iwb-report/report.json']), ['a/iwb-report/report.json', 'b/iwb-report/report.json']);
  assert.deepEqual(runLabels(['r.json', 'r.json']), ['r.json (1)', 'r.json (2)']);
});

let tmp: string;
before(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-compare-'));
});
after(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

test('a malformed report is refused with its file and field named', async () => {
  const good = path.join(tmp, 'good.json');
  const bad = path.join(tmp, 'bad.json');
  const report = reportOf(run('x', 3, 2, () => 1));
  await fs.writeFile(good, JSON.stringify(report));
  await fs.writeFile(bad, JSON.stringify({ ...report, overall: { ...report.overall, tcr: 'high' } }));
  const io = capture();
  assert.equal(await compareCommand([good, bad], io), 2);
  assert.match(io.errText(), new RegExp(`${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: field overall\\.tcr`));
  assert.equal(io.outText(), '', 'no leaderboard from half the runs');
});

test('npx iwb compare prints the leaderboard, marks the inseparable pair, and --json gives the same result', async () => {
  const files = { strong: path.join(tmp, 'strong', 'report.json'), close: path.join(tmp, 'close.json'), weak: path.join(tmp, 'weak.json') };
  await fs.mkdir(path.dirname(files.strong));
  await fs.writeFile(files.strong, JSON.stringify(reportOf(run('s', 20, 3, () => 3))));
  await fs.writeFile(files.close, JSON.stringify(reportOf(run('c', 20, 3, (j) => (j === 0 ? 2 : 1)))));
  await fs.writeFile(files.weak, JSON.stringify(reportOf(run('w', 20, 3, () => 1))));
  const iwb = (args: string[]) => promisify(execFile)(process.execPath, ['bin/iwb.mjs', 'compare', ...args], { cwd: ROOT });

  // The folder stands for its report.json.
  const text = (await iwb([files.weak, path.dirname(files.strong), files.close])).stdout;
  const lines = text.split('\n');
  const row = (agent: string) => lines.find((l) => new RegExp(`^\\S*\\s+\\d\\s+${agent}\\s`).test(l));
  assert.match(row('s')!, /^ +1 +s +strong +100\.0 \[100\.0, 100\.0\]/, text);
  assert.match(row('c')!, /^ +2 +c +close /, text);
  assert.match(row('w')!, /^≈ +3 +w +weak /, text);
  assert.match(text, /c @ close − w @ weak: \+1\.7 \[\+0\.0, \+5\.0\] over 20 shared cases: ≈ not separable/);
  assert.match(text, /≈ marks a row the data do not separate/);
  assert.match(text, /Kendall tau-b of the ranking by TCR, paper weights against uniform: 1\.000/);

  const json = JSON.parse((await iwb(['--json', files.weak, files.strong, files.close])).stdout) as Comparison;
  assert.deepEqual(json.rows.map((r) => r.label), ['s @ strong', 'c @ close', 'w @ weak']);
  assert.deepEqual(json.pairs.map((p) => [p.a, p.b, p.separable]), [['s @ strong', 'c @ close', true], ['c @ close', 'w @ weak', false]]);
  assert.deepEqual(Object.keys(json.kendallTau), ['uniform', 'cTech']);

  await assert.rejects(iwb([files.weak, '--metric', 'ias']), (e: { code: number; stderr: string }) => e.code === 2 && /--metric must be one of tcr, hr, sr/.test(e.stderr));
});

test('reports of different profiles are not ranked together unless --mixed, and the refusal says why', async () => {
  const iwbRun = reportOf(run('a', 4, 2, () => 2));
  const paperRun = reportOf(run('b', 4, 2, () => 1));
  paperRun.meta.profile = 'paper';
  const files = { iwb: path.join(tmp, 'profile-iwb.json'), paper: path.join(tmp, 'profile-paper.json') };
  await fs.writeFile(files.iwb, JSON.stringify(iwbRun));
  await fs.writeFile(files.paper, JSON.stringify(paperRun));
  const refused = capture();
  assert.equal(await compareCommand([files.iwb, files.paper], refused), 2);
  assert.match(refused.errText(), /different profiles \(iwb: .*profile-iwb\.json; paper: .*profile-paper\.json\).*not comparable.*--mixed/);
  assert.equal(refused.outText(), '');
  const mixed = capture();
  assert.equal(await compareCommand([files.iwb, files.paper, '--mixed'], mixed), 0);
  assert.match(mixed.errText(), /warning \(--mixed\)/);
  assert.match(mixed.outText(), /ranked by TCR/);
  // One profile on both sides: no complaint.
  const same = capture();
  assert.equal(await compareCommand([files.iwb, files.iwb], same), 0);
  assert.equal(same.errText(), '');
});
