import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { preflightAnswer } from '../testkit/fake-quirks.js';
import { reply, schemaName, start, type FakeServer, type RecordedRequest } from '../testkit/fake-server.js';
import type { Report } from '../reporters/report.js';
import { playwrightCommand } from '../testkit/playwright-cli.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Two slots without probes, so a judge model decides them unless the crash rule does first. */
const record = (over: Record<string, string> = {}) => JSON.stringify({
  id: 'counter-1-P-MIN',
  original_id: 'counter-1',
  persona: 'P-MIN',
  application_type: 'Counter page',
  instruction: 'A page with a heading and a button that counts clicks.',
  ground_truth_instruction: 'Build a page titled "Echo agent" with a button that counts how often it was clicked.',
  difficulty: 'easy',
  oracle_slots: [
    { id: 's1', original_task: 'Read the heading', expected_result: 'The heading reads Echo agent', target_component: 'Header', assertion_type: 'POSITIVE', c_tech: 1 },
    { id: 's2', original_task: 'Look for a sign-up form', expected_result: 'There is no sign-up form', target_component: 'Unrequested_Feature', assertion_type: 'NEGATIVE', c_tech: 1 },
  ],
  ...over,
});

/** A judge that passes every slot, in whichever session shape asks it. */
function judgeModel(req: RecordedRequest) {
  const probe = preflightAnswer(req.body);
  if (probe) return probe;
  const name = schemaName(req);
  if (name === 'visual_score') return reply.json({ layout: 4, creativeAlignment: 4, overall: 4, rationale: 'plain' });
  if (name === 'intent_judgement') return reply.json({ slotHits: [], ias: 3, rationale: 'no questions' });
  if (name === 'judge_paper_turn') return reply.json({ thought: 'all there', verdicts: ['s1', 's2'].map((slot) => ({ slot, status: 'pass', evidence: 'seen' })), action: { kind: 'done' } });
  return reply.json({ thought: 'decided', action: { kind: 'verdict', status: 'pass', evidence: 'the page does it' } });
}

let fake: FakeServer;
let tmp: string;
let dataset: string;
let quiet: string;
before(async () => {
  fake = await start();
  fake.script(judgeModel);
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-crash-run-'));
  dataset = path.join(tmp, 'counter.jsonl');
  await fs.writeFile(dataset, record() + '\n');
  quiet = path.join(tmp, 'quiet.jsonl');
  await fs.writeFile(quiet, record({ instruction: 'A page with a heading and a button that counts clicks. (quiet)' }) + '\n');
});
after(async () => {
  await fake?.close();
  await fs.rm(tmp, { recursive: true, force: true });
});

/** Spawned, not run in this process: the fake judge answers from this event loop. */
function run(name: string, profile: 'paper' | 'iwb', data = dataset): Promise<{ status: number | null; output: string; report: () => Promise<Report> }> {
  const reportDir = path.join(tmp, `report-${name}`);
  return new Promise((resolve) => {
    // A blob too, for merge-reports in a process whose environment names another profile (the last test).
    const child = spawn(...playwrightCommand(['test', '--project=p-min', '--workers=1', '--reporter=line,blob,./reporters/iwb-reporter.ts', '--output', path.join(tmp, `results-${name}`)]), {
      cwd: ROOT,
      env: {
        ...process.env,
        CI: '',
        IWB_LLM_CACHE: 'off',
        IWB_PROFILE: profile,
        IWB_USER: 'contained',
        IWB_DATASET: data,
        IWB_AGENT: 'command:node test/fixtures/crash-agent.mjs',
        IWB_RUN_DIR: path.join(tmp, `runs-${name}`),
        IWB_REPORT_DIR: reportDir,
        IWB_JUDGE_MODEL: 'fake-judge',
        IWB_JUDGE_BASE_URL: fake.baseURL,
        IWB_JUDGE_API_KEY: 'test-key',
        PLAYWRIGHT_BLOB_OUTPUT_FILE: path.join(tmp, 'blobs', `${name}.zip`),
      },
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (status) => resolve({ status, output, report: async () => JSON.parse(await fs.readFile(path.join(reportDir, 'report.json'), 'utf8')) as Report }));
  });
}

const judgeTurns = () => fake.requests.filter((r) => schemaName(r)?.startsWith('judge_')).length;

test('a working page that logs a console error on load: every slot fails as crashed under paper (TCR 0), and is judged as it is under iwb', async () => {
  const paper = await run('paper', 'paper');
  assert.equal(paper.status, 1, `every slot fails:\n${paper.output.slice(-3000)}`);
  const p = (await paper.report()).cases[0]!;
  assert.deepEqual(p.slots.map((s) => [s.id, s.status]), [['s1', 'fail'], ['s2', 'fail']]);
  assert.equal(p.tcr, 0);
  assert.equal(p.hallucinated, true, 'its NEGATIVE slot failed too, so the case counts as hallucinated, as in the paper');
  assert.equal((await paper.report()).meta.profile, 'paper');
  assert.equal(paper.output.split('crashed on load: analytics: failed to start the tracker').length - 1 >= 2, true, `each slot says why:\n${paper.output.slice(-3000)}`);
  assert.equal(judgeTurns(), 0, 'no judge session was asked about a crashed site');
  const crash = JSON.parse(await fs.readFile((await fs.readdir(path.join(tmp, 'runs-paper'), { recursive: true })).map((f) => path.join(tmp, 'runs-paper', f)).find((f) => f.endsWith('crash.json'))!, 'utf8')) as { crashed: boolean };
  assert.equal(crash.crashed, true, 'the check is kept beside the episode');
  const casePages = await fs.readdir(path.join(tmp, 'report-paper', 'cases'));
  const page = await fs.readFile(path.join(tmp, 'report-paper', 'cases', casePages.find((f) => f.endsWith('.html'))!), 'utf8');
  assert.match(page, /Crashed on load<\/b> \(the profile's crash rule\): analytics: failed to start the tracker/, 'the case page says why every slot failed');

  const iwb = await run('iwb', 'iwb');
  assert.equal(iwb.status, 0, `the judge passes both slots:\n${iwb.output.slice(-3000)}`);
  const i = (await iwb.report()).cases[0]!;
  assert.deepEqual(i.slots.map((s) => [s.id, s.status]), [['s1', 'pass'], ['s2', 'pass']]);
  assert.equal(i.tcr, 1);
  assert.equal(i.visualBug, true, 'the console error still counts toward VBR');
  assert.ok(judgeTurns() >= 2, 'the judge judged each slot');
  assert.ok(!iwb.output.includes('crashed on load'));
  const iwbPages = await fs.readdir(path.join(tmp, 'report-iwb', 'cases'));
  const iwbPage = await fs.readFile(path.join(tmp, 'report-iwb', 'cases', iwbPages.find((f) => f.endsWith('.html'))!), 'utf8');
  assert.ok(!/crashed on load/i.test(iwbPage) && /visual findings: console-error/.test(iwbPage), 'under iwb the error is a visual finding, not a crash');
});

test('under paper a site that loads cleanly is judged by one paper-shaped session for the whole case, against the gold instruction after a submit', async () => {
  fake.reset();
  fake.script(judgeModel);
  const paper = await run('paper-quiet', 'paper', quiet);
  assert.equal(paper.status, 0, paper.output.slice(-3000));
  const p = (await paper.report()).cases[0]!;
  assert.deepEqual(p.slots.map((s) => [s.id, s.status]), [['s1', 'pass'], ['s2', 'pass']]);
  const turns = fake.requests.filter((r) => schemaName(r)?.startsWith('judge_'));
  assert.deepEqual(turns.map(schemaName), ['judge_paper_turn'], 'one session for both slot tests');
  assert.match(JSON.stringify(turns[0]!.body.messages), /Slot s1[\s\S]*Slot s2[\s\S]*titled \\"Echo agent\\" with a button that counts/);
  const files = await fs.readdir(path.join(tmp, 'runs-paper-quiet'), { recursive: true });
  assert.ok(files.some((f) => f.endsWith('judge-session.json')), 'the session is kept beside the episode');
  assert.ok(files.some((f) => f.endsWith('crash.json')));
});

/** `merge-reports` of some of the runs' blobs, in an environment with no run setting but the one given. */
async function merge(name: string, runs: string[], env: Record<string, string>): Promise<{ status: number | null; output: string; reportDir: string }> {
  const blobs = path.join(tmp, `merge-${name}`);
  await fs.mkdir(blobs, { recursive: true });
  for (const r of runs) await fs.copyFile(path.join(tmp, 'blobs', `${r}.zip`), path.join(blobs, `${r}.zip`));
  const reportDir = path.join(tmp, `merged-${name}`);
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('IWB_') && !k.startsWith('PLAYWRIGHT_')));
  return new Promise((resolve) => {
    const child = spawn(...playwrightCommand(['merge-reports', '--reporter=./reporters/iwb-reporter.ts', blobs]), { cwd: ROOT, env: { ...clean, CI: '', IWB_REPORT_DIR: reportDir, ...env } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (status) => resolve({ status, output, reportDir }));
  });
}

test("merge-reports scores a run under the profile its tests recorded, not the merging process's, and refuses two runs' profiles mixed", async () => {
  const read = async (dir: string) => JSON.parse(await fs.readFile(path.join(dir, 'report.json'), 'utf8')) as Report;
  const merged = await merge('paper', ['paper'], { IWB_PROFILE: 'iwb' });
  assert.equal(merged.status, 0, merged.output.slice(-3000));
  const union = await read(merged.reportDir);
  const ran = await read(path.join(tmp, 'report-paper'));
  assert.equal(union.meta.profile, 'paper', 'the profile the tests ran under, though the merge names iwb');
  assert.equal(union.meta.dataset, dataset);
  const { startedAt: _a, durationMs: _b, ...unionMeta } = union.meta;
  const { startedAt: _c, durationMs: _d, ...ranMeta } = ran.meta;
  assert.deepEqual({ ...union, meta: unionMeta }, { ...ran, meta: ranMeta }, 'the merged report is the paper run\'s');

  const mixed = await merge('mixed', ['paper', 'iwb'], {});
  assert.notEqual(mixed.status, 0, mixed.output.slice(-3000));
  assert.match(mixed.output, /no report written: the tests to report ran under different profiles: (paper .* and iwb|iwb .* and paper) /);
  await assert.rejects(fs.stat(path.join(mixed.reportDir, 'report.json')), 'no report scores two runs under one run\'s rules');
});
