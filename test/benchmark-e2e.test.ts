import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import type { Report } from '../reporters/report.js';
import { ANNOTATION } from '../protocol/annotations.js';
import { playwrightCommand } from '../testkit/playwright-cli.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The end-to-end runs keep to three of the original built-in tasks, one easy and two hard (12 cases): every
 * task would multiply the run by eight, and every task's probes are proven on its reference site in
 * builtin-probes.test.ts. The Vite task
 * (unit-converter) runs through the real npm path in builtin-npm-site.test.ts.
 */
const ORIGINAL = ['bakery-menu', 'expense-tracker', 'ocean-quiz'];
const ORIGINAL_TAGS = `@task-(${ORIGINAL.join('|')})(?=\\s|$)`;
const originalOnly = (grep = '') => ['--grep', grep ? `^(?=.*${grep})(?=.*${ORIGINAL_TAGS})` : ORIGINAL_TAGS];

/** Runs the benchmark the way a user does, in a child process, and reads the report it leaves. */
async function bench(env: Record<string, string>, args: string[] = [], reporters = 'dot,./reporters/iwb-reporter.ts'): Promise<{ report: Report; stdout: string; status: number | null; seconds: number }> {
  const started = Date.now();
  const run = spawnSync(...playwrightCommand(['test', `--reporter=${reporters}`, '--output', path.join(env.IWB_REPORT_DIR!, 'test-results'), ...args]), {
    cwd: ROOT,
    env: { ...process.env, ...env, CI: '' },
    encoding: 'utf8',
    timeout: 600_000,
  });
  const text = await fs.readFile(path.join(env.IWB_REPORT_DIR!, 'report.json'), 'utf8');
  return { report: JSON.parse(text) as Report, stdout: run.stdout + run.stderr, status: run.status, seconds: (Date.now() - started) / 1000 };
}

interface JsonSuite {
  suites?: JsonSuite[];
  specs?: Array<{ tests: Array<{ annotations: Array<{ type: string; description: string }>; results: Array<{ status: string; workerIndex: number; annotations?: Array<{ type: string; description: string }> }> }> }>;
}
function slotTestsOf(suite: JsonSuite): Array<{ annotations: Array<{ type: string; description: string }>; status: string; workerIndex: number }> {
  return [
    ...(suite.suites ?? []).flatMap(slotTestsOf),
    ...(suite.specs ?? []).flatMap((s) => s.tests.flatMap((t) => t.results.map((r) => ({ annotations: [...t.annotations, ...(r.annotations ?? [])], status: r.status, workerIndex: r.workerIndex })))),
  ];
}

test('end to end: the reference agent scores TCR 1 and HR 0 for every persona, and a rerun reuses its episodes', async () => {
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-e2e-'));
  const env = { IWB_RUN_DIR: path.join(tmp, 'runs'), IWB_REPORT_DIR: path.join(tmp, 'report'), IWB_AGENT: '' };
  const first = await bench(env, originalOnly());
  assert.equal(first.status, 0, first.stdout.slice(-3000));
  const r = first.report;
  assert.deepEqual(r.meta.agents, ['reference']);
  assert.equal(r.overall.cases, ORIGINAL.length * 4);
  assert.equal(r.overall.unjudgedSlots, 0);
  assert.equal(r.overall.erroredSlots, 0);
  assert.deepEqual(Object.keys(r.byPersona), ['P-MIN', 'P-RAM', 'P-INT', 'P-CON']);
  for (const [persona, a] of Object.entries(r.byPersona)) {
    assert.equal(a.tcr, 1, `${persona} TCR`);
    assert.equal(a.hr, 0, `${persona} HR`);
  }
  assert.equal(r.episodes.ranThisRun, ORIGINAL.length * 4);
  assert.equal(r.overall.vbr, 0, `reference sites have no visual bugs: ${JSON.stringify(r.cases.filter((c) => c.visualBug).map((c) => [c.id, c.visualFindings]))}`);
  assert.ok(await fs.stat(path.join(tmp, 'report', 'report.md')));
  console.log(`reference run, all personas: ${first.seconds.toFixed(1)} s`);

  // One persona's hard cases are enough to show the reuse, and that --grep @hard selects only hard cases.
  const second = await bench(env, ['--project=p-min', ...originalOnly('@hard')]);
  assert.equal(second.status, 0);
  const hard = r.cases.filter((c) => c.persona === 'P-MIN' && c.difficulty === 'hard').map((c) => c.id).sort();
  assert.ok(hard.length > 0 && hard.length < ORIGINAL.length, `some original tasks are hard, not all: ${hard.join(', ')}`);
  assert.deepEqual(second.report.cases.map((c) => c.id).sort(), hard, '--grep @hard selects exactly the hard cases');
  assert.equal(second.report.episodes.ranThisRun, 0, 'a rerun reads every episode from the run folder');
  assert.equal(second.report.episodes.fromCache, hard.length);
  assert.equal(second.report.overall.tcr, 1);
  console.log(`cached rerun: ${second.seconds.toFixed(1)} s`);
});

test('end to end: the null agent scores TCR 0', async () => {
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-e2e-null-'));
  const env = { IWB_RUN_DIR: path.join(tmp, 'runs'), IWB_REPORT_DIR: path.join(tmp, 'report'), IWB_AGENT: 'null' };
  // Two tasks: every slot fails, so every slot test costs a worker restart; more tasks would prove nothing more.
  const json = path.join(tmp, 'playwright.json');
  const run = await bench({ ...env, PLAYWRIGHT_JSON_OUTPUT_NAME: json }, ['--project=p-min', '--grep', '@task-(bakery-menu|tip-calculator)(?=\\s|$)'], 'dot,json,./reporters/iwb-reporter.ts');
  assert.equal(run.status, 1, 'failed slots fail the Playwright run');
  // Each case's first slot test judged the case; every other slot test (each in a worker of its own, started
  // after the failed slot before it) only read its verdict, and says by which test it was judged.
  const tests = slotTestsOf(JSON.parse(await fs.readFile(json, 'utf8')) as JsonSuite);
  assert.ok(tests.length > 4, `${tests.length} slot tests`);
  const firstOf = new Map<string, string>();
  for (const t of tests) {
    const slot = JSON.parse(t.annotations.find((a) => a.type === ANNOTATION.slot)!.description) as { caseId: string; slotId: string };
    if (!firstOf.has(slot.caseId)) firstOf.set(slot.caseId, slot.slotId);
    const judging = t.annotations.find((a) => a.type === ANNOTATION.judging);
    assert.equal(t.status, 'failed', `${slot.caseId} ${slot.slotId}`);
    assert.equal((JSON.parse(judging!.description) as { by: string }).by, firstOf.get(slot.caseId), `${slot.caseId} ${slot.slotId} was judged by the case's first slot test`);
  }
  assert.equal(firstOf.size, 2);
  assert.equal(new Set(tests.map((t) => t.workerIndex)).size, tests.length, 'Playwright still starts a worker after each failed slot');
  assert.deepEqual(run.report.meta.agents, ['null']);
  assert.equal(run.report.overall.tcr, 0);
  assert.equal(run.report.overall.vbr, 1, 'an empty submission is a visual bug (blank or unreachable page)');
  assert.equal(run.report.overall.cases, 2);
  assert.deepEqual(Object.keys(run.report.byPersona), ['P-MIN']);
});

test('end to end: --repeat-each runs an episode per trial and the report gives pass^k over them', async () => {
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-e2e-repeat-'));
  const env = { IWB_RUN_DIR: path.join(tmp, 'runs'), IWB_REPORT_DIR: path.join(tmp, 'report'), IWB_AGENT: 'reference' };
  const run = await bench(env, ['--project=p-min', '--grep', '@task-tip-calculator', '--repeat-each', '2']);
  assert.equal(run.status, 0, run.stdout.slice(-3000));
  const r = run.report;
  assert.deepEqual(r.cases.map((c) => [c.id, c.trial]), [['tip-calculator_P-MIN', 0], ['tip-calculator_P-MIN', 1]]);
  assert.equal(r.episodes.ranThisRun, 2, 'each trial is its own episode');
  assert.deepEqual(r.passK.reference, { 1: 1, 2: 1 });
  const dirs = await fs.readdir(path.join(tmp, 'runs', (await fs.readdir(path.join(tmp, 'runs')))[0]!));
  assert.ok(dirs.includes('tip-calculator_P-MIN') && dirs.includes('tip-calculator_P-MIN~trial-1'), dirs.join(', '));
});

test('a run without slot tests (--list) leaves the last report as it was', async () => {
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-e2e-list-'));
  const env = { IWB_RUN_DIR: path.join(tmp, 'runs'), IWB_REPORT_DIR: path.join(tmp, 'report') };
  await fs.mkdir(env.IWB_REPORT_DIR);
  await fs.writeFile(path.join(env.IWB_REPORT_DIR, 'report.json'), '{"kept": true}');
  const run = await bench(env, ['--list']);
  assert.equal(run.status, 0);
  assert.deepEqual(run.report, { kept: true });
  assert.match(run.stdout, /no slot test ran/);
});
