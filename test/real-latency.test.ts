import assert from 'node:assert/strict';
import { existsSync, promises as fs, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { preflightAnswer } from '../testkit/fake-quirks.js';
import { reply, start, type FakeServer } from '../testkit/fake-server.js';
import type { Report } from '../reporters/report.js';
import { playwright } from './bench-support.js';

/**
 * A Playwright run against a slow model: the preflight stops a run whose judge cannot see images before
 * any episode, and an episode far longer than the per-test timeout finishes, because the episode fixture
 * gives its test the episode's own budget.
 */
let fake: FakeServer;
before(async () => {
  fake = await start();
});
after(async () => {
  await fake.close();
});

const ONE_CASE = ['test', '--project=p-min', '--grep', '@task-tip-calculator', '--workers=1'];

test('a judge that cannot take images stops the run before any episode, naming IWB_JUDGE_MODEL', async () => {
  fake.reset();
  fake.quirks({ refuseImages: 'vllm' });
  fake.script(() => reply.json({ ok: true, colour: 'red' }));
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-preflight-run-'));
  const run = await playwright([...ONE_CASE, '--output', path.join(tmp, 'test-results')], { IWB_RUN_DIR: path.join(tmp, 'runs'), IWB_REPORT_DIR: path.join(tmp, 'report'), IWB_JUDGE_MODEL: 'text-only', IWB_JUDGE_BASE_URL: fake.baseURL });
  assert.notEqual(run.status, 0);
  assert.match(run.output, /preflight failed for judge/);
  assert.match(run.output, /IWB_JUDGE_MODEL to a model that takes images/);
  // The runner's frozen settings (run-configs/) are written before the preflight; nothing else is.
  const written = existsSync(path.join(tmp, 'runs')) ? readdirSync(path.join(tmp, 'runs')) : [];
  assert.deepEqual(written.filter((f) => f !== 'run-configs'), [], 'no episode folder is written');
  assert.ok(!existsSync(path.join(tmp, 'report', 'report.json')), 'no slot is reported');
  assert.ok(run.seconds < 60, `stopped in ${run.seconds} s`);
  fake.quirks({});
});

test('a 20-step episode of a slow model finishes although the per-test timeout is far below its length', async () => {
  fake.reset();
  const DELAY = 250;
  let step = 0;
  fake.script((req) => {
    // Preflight: plain chat, the structured check (an agent without a copilot), the tool check, the image check.
    const probe = preflightAnswer(req.body);
    if (probe) return probe;
    if (!req.body.tools) return reply.text('OK');
    step++;
    return reply.delay(DELAY, step < 20 ? reply.tools([{ name: 'clarify', arguments: { question: `Question ${step}?` } }]) : reply.tools([{ name: 'submit', arguments: {} }]));
  });
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-latency-'));
  const env = { IWB_RUN_DIR: path.join(tmp, 'runs'), IWB_REPORT_DIR: path.join(tmp, 'report'), IWB_AGENT: 'openai', IWB_AGENT_MODEL: 'slow', IWB_AGENT_BASE_URL: fake.baseURL, IWB_STEP_CAP: '20' };
  // Its own test-results: Playwright empties its output folder at the start, and another run may be using the default one.
  const run = await playwright([...ONE_CASE, '--timeout=3000', '--reporter=dot,./reporters/iwb-reporter.ts', '--output', path.join(tmp, 'test-results')], env);
  const report = JSON.parse(await fs.readFile(path.join(tmp, 'report', 'report.json'), 'utf8')) as Report;
  assert.equal(step, 20, run.output.slice(-2000));
  assert.equal(report.episodes.total, 1);
  assert.equal(report.cases[0]!.episodeStatus, 'submitted', run.output.slice(-2000));
  assert.equal(report.cases[0]!.steps, 20);
  assert.equal(report.overall.erroredCases, 0);
  assert.ok(!/Test timeout of 3000ms exceeded/.test(run.output), run.output.slice(-2000));
});
