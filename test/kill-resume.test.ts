import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { BENCH_MODELS, benchModel } from '../bench/script.js';
import { UNTRUSTED_MARK } from '../vision/neutralise.js';
import { callKey } from '../llm/call-cache.js';
import { slotHash } from '../judge/verdict-cache.js';
import { loadDataset } from '../slots/load.js';
import type { Report } from '../reporters/report.js';
import { ROOT } from './bench-support.js';
import { lastUserText, reply, schemaName, start, type FakeReply, type FakeServer, type RecordedRequest } from '../testkit/fake-server.js';
import { checkRunFolder } from './run-folder-check.js';
import { releaseFile } from '../config/public-data.js';
import { playwrightCommand } from '../testkit/playwright-cli.js';

/**
 * A run killed with SIGKILL in the middle (runner, workers and all else in its process group, as the OOM
 * killer or a lost machine would) and started again finishes what is left and nothing more: the episodes
 * and verdicts on disk at the kill are not redone, no cache file is torn, and the report equals the one of
 * an uninterrupted run of the same cases in another folder.
 */

const { path: PUBLIC, skip: noData } = releaseFile('interactweb-bench', 'all.jsonl', process.env);
const JUDGE_MS = 100;
const AGENT_MS = 200;
/** Two public cases cut to a POSITIVE and a NEGATIVE slot each (a run's cost is per slot test). */
const CASES = [{ line: 0 }, { line: 4 }];

/**
 * Where the kill lands: in the run to be killed, the second case's agent gets no reply to its second turn
 * until this is released, so its episode is under way while the first case's episode and verdicts reach
 * the disk; the kill comes once a verdict is there.
 */
let held: { waiting: boolean; release: () => void; released: Promise<void> } | undefined;
function holdSecondCase(): NonNullable<typeof held> {
  let release = () => {};
  const released = new Promise<void>((r) => (release = r));
  return (held = { waiting: false, release, released });
}

interface PublicRecord {
  id: string;
  instruction: string;
  ground_truth_instruction: string;
  oracle_slots: Array<{ expected_result: string; assertion_type: string; final_weight?: number }>;
  oracle_total_score?: number;
}

let fake: FakeServer;
let tmp: string;
let records: PublicRecord[];
let dataset: string;

before(async () => {
  fake = await start();
  fake.script(model);
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-kill-resume-'));
  if (noData) return;
  const lines = (await fs.readFile(PUBLIC, 'utf8')).split('\n');
  records = CASES.map(({ line }) => {
    const r = JSON.parse(lines[line]!) as PublicRecord;
    const slots = r.oracle_slots;
    delete r.oracle_total_score;
    r.oracle_slots = [...slots.filter((s) => s.assertion_type === 'POSITIVE').slice(0, 1), ...slots.filter((s) => s.assertion_type === 'NEGATIVE')].map(({ final_weight: _w, ...s }) => s);
    return r;
  });
  dataset = path.join(tmp, 'cut.jsonl');
  await fs.writeFile(dataset, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
});
after(async () => {
  await fake?.close();
  await fs.rm(tmp, { recursive: true, force: true });
});

const mentions = (req: RecordedRequest, text: string) => JSON.stringify(req.body.messages).includes(JSON.stringify(text.slice(0, 80)).slice(1, -1));
const caseOf = (req: RecordedRequest) => records.findIndex((r) => mentions(req, r.instruction) || mentions(req, r.ground_truth_instruction));

/** A judge session's case and slot, from the slot it is asked about (a NEGATIVE slot also carries the gold instruction). */
function judgedSlot(req: RecordedRequest): string {
  const expected = /Expected result: (.*)/.exec(lastUserText(req).split(UNTRUSTED_MARK)[0]!)?.[1] ?? '';
  for (const r of records) {
    const i = r.oracle_slots.findIndex((s) => s.expected_result === expected && (s.assertion_type === 'POSITIVE' || mentions(req, r.ground_truth_instruction)));
    if (i >= 0) return `${r.id}:s${i + 1}`;
  }
  return '?';
}

/**
 * The bench's scripted models with some latency. The judge clicks once, then passes POSITIVE slots and
 * fails NEGATIVE ones (the last of each case: a failed test costs a worker, and there it costs nothing more).
 */
async function model(req: RecordedRequest): Promise<FakeReply> {
  const name = schemaName(req);
  if (req.body.model === BENCH_MODELS.agent) {
    if (held && caseOf(req) === 1 && req.body.messages.some((m) => m.role === 'tool')) {
      held.waiting = true;
      await held.released;
    }
    return reply.delay(AGENT_MS, benchModel(req));
  }
  if (name === 'intent_judgement') {
    const ids = [...lastUserText(req).split(UNTRUSTED_MARK)[0]!.matchAll(/^- (s\d+) \[/gm)].map((m) => m[1]!);
    return reply.delay(JUDGE_MS, reply.json({ slotHits: ids.map((slot, i) => ({ slot, hit: i === 0 })), ias: 3, rationale: 'one question' }));
  }
  if (name === 'judge_step' || name === 'judge_verdict') {
    const trusted = lastUserText(req).split(UNTRUSTED_MARK)[0]!;
    if (name === 'judge_step' && !/step 1: /.test(trusted)) return reply.delay(JUDGE_MS, reply.json({ thought: 'try the button', action: { kind: 'click', element: 1 } }));
    const status = /\(NEGATIVE,/.test(trusted) ? 'fail' : 'pass';
    return reply.delay(JUDGE_MS, reply.json({ thought: 'decided', action: { kind: 'verdict', status, evidence: 'seen after one click' } }));
  }
  return reply.delay(JUDGE_MS, benchModel(req));
}

/** Which case a request serves (`role:case`), and for a judge session which slot (`judge:case:slot`). */
function owner(req: RecordedRequest): string {
  const role = Object.entries(BENCH_MODELS).find(([, m]) => m === req.body.model)?.[0] ?? String(req.body.model);
  const name = schemaName(req);
  if (name === 'judge_step' || name === 'judge_verdict') return `judge:${judgedSlot(req)}`;
  const r = records[caseOf(req)];
  return r ? `${role}:${r.id}` : `${role}:preflight`;
}

function tally(reqs: RecordedRequest[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of reqs) out[owner(r)] = (out[owner(r)] ?? 0) + 1;
  return Object.fromEntries(Object.entries(out).sort());
}

const folders = (name: string) => ({ runDir: path.join(tmp, name, 'runs'), reportDir: path.join(tmp, name, 'report'), llmCache: path.join(tmp, name, 'llm-cache') });

function env(name: string): Record<string, string> {
  const f = folders(name);
  return {
    CI: '1',
    IWB_DATASET: dataset,
    IWB_AGENT: 'openai',
    IWB_RUN_DIR: f.runDir,
    IWB_REPORT_DIR: f.reportDir,
    IWB_LLM_CACHE: 'record',
    IWB_LLM_CACHE_DIR: f.llmCache,
    ...Object.fromEntries(
      Object.entries(BENCH_MODELS).flatMap(([role, m]) => [
        [`IWB_${role.toUpperCase()}_MODEL`, m],
        [`IWB_${role.toUpperCase()}_BASE_URL`, fake.baseURL],
        [`IWB_${role.toUpperCase()}_API_KEY`, 'k'],
      ]),
    ),
  };
}

interface Run {
  status: number | null;
  signal: NodeJS.Signals | null;
  output: string;
  seconds: number;
  endedAt: number;
  requests: RecordedRequest[];
}

/**
 * `playwright test` as the leader of its own process group, so the whole run (runner, workers and
 * what they started in their group) can be killed at once: `killWhen` is polled, and when it says so the
 * group gets SIGKILL.
 */
function runBenchmark(name: string, killWhen?: () => Promise<boolean>): Promise<Run> {
  const started = Date.now();
  const first = fake.requests.length;
  const args = ['test', '--workers=2', '--reporter=./reporters/iwb-reporter.ts', '--output', path.join(tmp, name, 'results')];
  return new Promise((resolve) => {
    const child = spawn(...playwrightCommand(args), { cwd: ROOT, detached: true, env: { ...process.env, ...env(name) } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    let timer: NodeJS.Timeout | undefined;
    let ended = false;
    const poll = async () => {
      if (ended) return;
      if (await killWhen!()) process.kill(-child.pid!, 'SIGKILL');
      else if (!ended) timer = setTimeout(() => void poll(), 25);
    };
    if (killWhen) timer = setTimeout(() => void poll(), 25);
    // A run that hangs fails the test instead of holding npm test.
    const guard = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 180_000);
    child.on('close', (status, signal) => {
      ended = true;
      clearTimeout(timer);
      clearTimeout(guard);
      resolve({ status, signal, output, seconds: (Date.now() - started) / 1000, endedAt: Date.now(), requests: fake.requests.slice(first) });
    });
  });
}

async function filesUnder(dir: string, match: (rel: string) => boolean): Promise<Map<string, string>> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const out = new Map<string, string>();
  for (const e of entries) {
    const file = path.join(e.parentPath, e.name);
    const rel = path.relative(dir, file);
    if (e.isFile() && match(rel)) out.set(rel, await fs.readFile(file, 'utf8').catch(() => ''));
  }
  return out;
}

/**
 * Processes still alive that belong to a run: they carry its IWB_RUN_DIR in their environment, whatever
 * process group they put themselves in (Playwright starts browsers in groups of their own).
 */
async function survivors(runDir: string, waitMs = 5000): Promise<string[]> {
  const until = Date.now() + waitMs;
  for (;;) {
    const alive: string[] = [];
    for (const pid of (await fs.readdir('/proc')).filter((p) => /^\d+$/.test(p))) {
      const environ = await fs.readFile(`/proc/${pid}/environ`, 'utf8').catch(() => '');
      if (!environ.split('\0').includes(`IWB_RUN_DIR=${runDir}`)) continue;
      const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
      // A zombie has ended; only its parent (init, in a container that never reaps) still lists it.
      if (stat && !/\) Z /.test(stat)) alive.push(`${pid} ${(await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).replace(/\0/g, ' ').slice(0, 120)}`);
    }
    if (alive.length === 0 || Date.now() > until) return alive;
    await new Promise((r) => setTimeout(r, 200));
  }
}

const isTrajectory = (rel: string) => rel.endsWith(`${path.sep}trajectory.json`) && !rel.includes('.staging');
const isVerdict = (rel: string) => rel.startsWith(`verdicts${path.sep}`) && rel.endsWith('.json');
const episodeCase = (trajectory: string) => (JSON.parse(trajectory) as { caseId: string }).caseId;
const slotOf = (verdict: string) => {
  const { key } = JSON.parse(verdict) as { key: { slotId: string; slotHash: string } };
  return `${key.slotId}#${key.slotHash}`;
};

test('a run killed with SIGKILL mid-run and started again: nothing finished is redone, no cache file is torn, the report equals an uninterrupted run', { skip: noData }, async () => {
  const uninterrupted = await runBenchmark('whole');
  assert.equal(uninterrupted.signal, null, uninterrupted.output.slice(-3000));
  const expected = JSON.parse(await fs.readFile(path.join(folders('whole').reportDir, 'report.json'), 'utf8')) as Report;
  assert.equal(expected.overall.judgedSlots, 4, uninterrupted.output.slice(-3000));
  console.log(`uninterrupted: ${uninterrupted.seconds} s, ${uninterrupted.requests.length} requests`, tally(uninterrupted.requests));

  // Killed once the first case's episode and a verdict of it are on disk, while the second case's agent waits for its model.
  const killed = folders('killed');
  const hold = holdSecondCase();
  let killedAt = 0;
  let running: string[] = [];
  const cut = await runBenchmark('killed', async () => {
    const now = hold.waiting && (await filesUnder(killed.runDir, isVerdict)).size >= 1;
    if (now) {
      killedAt = Date.now();
      running = await survivors(killed.runDir, 0);
    }
    return now;
  });
  held = undefined;
  hold.release();
  assert.equal(cut.signal, 'SIGKILL', `the run ended before the kill:\n${cut.output.slice(-3000)}`);
  const episodesAtKill = await filesUnder(killed.runDir, isTrajectory);
  const verdictsAtKill = await filesUnder(killed.runDir, isVerdict);
  const callsAtKill = new Set([...(await filesUnder(killed.llmCache, (rel) => /^[0-9a-f]{2}\/.*\.json$/.test(rel))).keys()].map((rel) => path.basename(rel, '.json')));
  const recorded = cut.requests.filter((r) => callsAtKill.has(callKey(fake.baseURL, r.body)));
  assert.equal(recorded.length, callsAtKill.size, 'each recorded model call is a request the killed run sent (the cache key is recomputed right)');
  const atKill = await checkRunFolder(killed.runDir, killed.llmCache);
  console.log(`killed after ${cut.seconds} s (all gone ${cut.endedAt - killedAt} ms after the kill): ${episodesAtKill.size} episode(s), ${verdictsAtKill.size} verdict(s), ${callsAtKill.size} model calls recorded`, atKill, tally(cut.requests));
  assert.equal(episodesAtKill.size, 1, 'the first case\'s episode was on disk at the kill, the second\'s under way');
  assert.deepEqual(atKill.problems, [], 'every file the killed run left is whole');
  assert.ok(running.some((p) => p.includes('chromium')) && running.some((p) => p.includes('workerProcessEntry')), `the run's processes are recognised: ${running.join('; ')}`);
  assert.deepEqual(await survivors(killed.runDir), [], 'nothing the killed run started is left running (its browser server included)');

  const resumed = await runBenchmark('killed');
  assert.equal(resumed.signal, null, resumed.output.slice(-3000));
  const report = JSON.parse(await fs.readFile(path.join(killed.reportDir, 'report.json'), 'utf8')) as Report;
  console.log(`resumed: ${resumed.seconds} s, ${resumed.requests.length} requests`, tally(resumed.requests));

  // The same verdicts and figures as the uninterrupted run.
  const verdicts = (r: Report) => r.cases.flatMap((c) => c.slots.map((s) => `${c.id}/${s.id}:${s.status}`));
  assert.deepEqual(verdicts(report), verdicts(expected));
  assert.equal(resumed.status, uninterrupted.status);
  for (const k of ['tcr', 'tcrUniform', 'hr', 'sr', 'chr', 'vci', 'pcr', 'judgedSlots', 'erroredSlots', 'erroredCases', 'ias'] as const) {
    assert.equal(report.overall[k], expected.overall[k], `overall.${k}`);
  }
  // Tokens travel with the episodes and verdicts they made: the run's usage is what its results cost, killed or not.
  assert.deepEqual(report.overall.usage, expected.overall.usage);
  assert.equal(report.episodes.fromCache, episodesAtKill.size, 'the episodes finished before the kill came from disk');
  assert.equal(report.episodes.ranThisRun, CASES.length - episodesAtKill.size);

  // Nothing finished before the kill was asked again, and no recorded model call was sent twice.
  const asked = tally(resumed.requests);
  for (const t of episodesAtKill.values()) {
    const id = episodeCase(t);
    assert.equal(asked[`agent:${id}`] ?? 0, 0, `finished episode ${id}: its agent was not asked again`);
    assert.equal(asked[`user:${id}`] ?? 0, 0, `finished episode ${id}: its user was not asked again`);
  }
  const slotNames = new Map<string, string>((await loadDataset(dataset)).cases.flatMap((c) => c.slots.map((s) => [`${s.id}#${slotHash(s, c)}`, `${c.id}:${s.id}`] as const)));
  for (const v of verdictsAtKill.values()) {
    const slot = slotNames.get(slotOf(v));
    assert.ok(slot, 'a verdict of a slot of the dataset');
    assert.equal(asked[`judge:${slot}`] ?? 0, 0, `finished verdict ${slot}: the judge was not asked again`);
  }
  const resent = resumed.requests.filter((r) => callsAtKill.has(callKey(fake.baseURL, r.body)));
  assert.deepEqual(resent.map(owner), [], 'a model call recorded before the kill is answered from the cache');
  // Per case, role and slot: what the killed run got answered plus what the rerun asked is what the uninterrupted run asked.
  const before = tally(recorded);
  const whole = tally(uninterrupted.requests);
  for (const o of new Set([...Object.keys(whole), ...Object.keys(asked)])) {
    if (o.endsWith(':preflight')) continue;
    assert.equal((before[o] ?? 0) + (asked[o] ?? 0), whole[o], `${o}: ${before[o] ?? 0} answered before the kill + ${asked[o] ?? 0} asked by the rerun`);
  }

  // The files of the finished work are those the killed run wrote, byte for byte.
  const episodesAfter = await filesUnder(killed.runDir, isTrajectory);
  for (const [rel, text] of episodesAtKill) assert.equal(episodesAfter.get(rel), text, `${rel} was not rewritten`);
  const verdictsAfter = await filesUnder(killed.runDir, isVerdict);
  for (const [rel, text] of verdictsAtKill) assert.equal(verdictsAfter.get(rel), text, `${rel} was not rewritten`);

  const end = await checkRunFolder(killed.runDir, killed.llmCache);
  assert.deepEqual(end.problems, []);
  // A temporary file of a write the kill cut short may stay (nothing reads it); a lock or staging folder may not.
  assert.deepEqual(end.leftovers.filter((f) => !f.endsWith('.tmp')), [], 'the rerun took over and released the killed run\'s locks');
  assert.equal(end.checked.trajectory, CASES.length);
  assert.equal(end.checked.verdict, expected.overall.judgedSlots);
  console.log(end);
});
