import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { preflightAnswer } from '../llm/fake-quirks.js';
import { reply, schemaName, start, type FakeServer } from '../llm/fake-server.js';
import type { Report } from '../reporters/report.js';
import { playwright } from './bench-support.js';

/**
 * Record a small run with the agent and the judge on the fake server, delete the run and its report, stop
 * the server, replay: the same verdicts and figures with zero network calls (the server is gone, so any call
 * would error the slot).
 */
let fake: FakeServer;
let tmp: string;
before(async () => {
  fake = await start();
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-llm-replay-'));
});
after(async () => {
  await fake.close().catch(() => undefined);
  await fs.rm(tmp, { recursive: true, force: true });
});

const SITE = '<!doctype html><html><head><title>Tip calculator</title></head><body><h1>Tip calculator</h1><label>Bill <input id="bill" type="number"></label><button>Compute</button><p id="tip"></p></body></html>';
const tool = (name: string, args: unknown) => reply.tools([{ name, arguments: args }]);

/** Stateless from the request alone, so the recorded and the replayed run see the same conversation. */
function answer(body: Parameters<typeof preflightAnswer>[0], name: string | undefined) {
  const pre = preflightAnswer(body);
  if (pre) return pre;
  if (body.model === 'fake-agent') {
    const turns = body.messages.filter((m) => m.role === 'assistant').length;
    return turns === 0 ? tool('clarify', { question: 'What should the page show?' }) : turns === 1 ? tool('implement', { files: [{ path: 'index.html', content: SITE }] }) : tool('submit', {});
  }
  if (name === 'visual_score') return reply.json({ layout: 4, creativeAlignment: 3, overall: 4, rationale: 'plain' });
  const text = JSON.stringify(body.messages.at(-1)?.content ?? '');
  // Some slots fail, so the replay has verdicts of both kinds to reproduce.
  const status = text.length % 3 === 0 ? 'fail' : 'pass';
  return reply.json({ thought: 'looked', action: { kind: 'verdict', status, evidence: 'from the screenshot' } });
}

test('IWB_LLM_CACHE=replay reproduces a recorded run with the model server stopped', async () => {
  fake.script((req) => answer(req.body, schemaName(req)));
  const runs = path.join(tmp, 'work', 'runs');
  const reportDir = path.join(tmp, 'report');
  const env = {
    IWB_RUN_DIR: runs,
    IWB_REPORT_DIR: reportDir,
    IWB_AGENT: 'openai',
    IWB_AGENT_MODEL: 'fake-agent',
    IWB_AGENT_BASE_URL: fake.baseURL,
    IWB_JUDGE_MODEL: 'fake-judge',
    IWB_JUDGE_BASE_URL: fake.baseURL,
    OPENAI_API_KEY: 'k',
    PLAYWRIGHT_HTML_OUTPUT_DIR: path.join(tmp, 'html'),
  };
  const args = ['test', '--project=p-min', '--grep', '@task-tip-calculator', '--workers=1', '--reporter=dot,./reporters/iwb-reporter.ts', '--output', path.join(tmp, 'results')];
  const recorded = await playwright(args, env);
  const first = JSON.parse(await fs.readFile(path.join(reportDir, 'report.json'), 'utf8')) as Report;
  assert.ok(fake.requests.length > 3, `the recording called the models: ${fake.requests.length}\n${recorded.output.slice(-2000)}`);
  const agentCalls = fake.requests.filter((r) => r.body.model === 'fake-agent').length;

  await fs.rm(runs, { recursive: true, force: true });
  await fs.rm(reportDir, { recursive: true, force: true });
  const url = fake.baseURL;
  await fake.close();
  const replayed = await playwright(args, { ...env, IWB_LLM_CACHE: 'replay' });
  const second = JSON.parse(await fs.readFile(path.join(reportDir, 'report.json'), 'utf8')) as Report;
  assert.equal(await fetch(`${url}/models`).then(() => 'up', () => 'down'), 'down', 'the server really was gone');
  assert.doesNotMatch(replayed.output, /replay: no recorded reply/, replayed.output.slice(-3000));

  const verdicts = (r: Report) => r.cases.map((c) => ({ id: c.id, status: c.episodeStatus, steps: c.steps, slots: JSON.stringify((c as { slots?: unknown }).slots) }));
  assert.deepEqual(verdicts(second), verdicts(first));
  assert.deepEqual(second.overall, first.overall, 'the same report figures');
  assert.equal(first.overall.erroredCases, 0, recorded.output.slice(-2000));
  assert.equal(replayed.status, recorded.status);
  console.log(`recorded ${fake.requests.length} model calls (${agentCalls} agent) in ${recorded.seconds.toFixed(1)} s; replayed with none in ${replayed.seconds.toFixed(1)} s`);
});
