import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { preflightAnswer } from '../testkit/fake-quirks.js';
import { reply, start, type FakeServer, type RecordedRequest } from '../testkit/fake-server.js';
import type { Report } from '../reporters/report.js';
import { playwright } from './bench-support.js';

/**
 * Cases run and judged ahead in the runner (fixtures/cases-ahead.ts): with one worker and an agent model that
 * takes 600 ms a reply, three cases' episodes are in flight at once, each runs once, every slot is judged by
 * the runner (its test reads the record, never judges it again), and the report counts the episodes as run
 * this run.
 */
let fake: FakeServer;
before(async () => {
  fake = await start();
});
after(async () => {
  await fake.close();
});

const DELAY_MS = 600;

interface PwSuite {
  suites?: PwSuite[];
  specs?: Array<{ tests: Array<{ results: Array<{ annotations: Array<{ type: string; description?: string }> }> }> }>;
}
const testsOf = (suites: PwSuite[]): Array<{ annotations: Array<{ type: string; description?: string }> }> =>
  suites.flatMap((s) => [...(s.specs ?? []).flatMap((sp) => sp.tests.flatMap((t) => t.results)), ...testsOf(s.suites ?? [])]);
const caseOf = (req: RecordedRequest) => JSON.stringify(req.body.messages.find((m) => m.role === 'user')?.content ?? '').slice(0, 200);

test('cases ahead: one worker, three episodes in flight in the runner, each run once, every slot judged by the runner and counted as run this run', async () => {
  const arrivals: Array<{ at: number; case: string }> = [];
  fake.script((req) => {
    const probe = preflightAnswer(req.body);
    if (probe) return probe;
    arrivals.push({ at: performance.now(), case: caseOf(req) });
    const asked = req.body.messages.some((m) => m.role === 'tool');
    return reply.delay(DELAY_MS, reply.tools([asked ? { name: 'submit', arguments: {} } : { name: 'clarify', arguments: { question: 'What matters most?' } }]));
  });
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-ahead-'));
  const report = path.join(tmp, 'report');
  const run = await playwright(
    ['test', '--project=p-min', '--grep', '@task-(tip-calculator|focus-timer|unit-converter)', '--workers=1', '--reporter=./reporters/iwb-reporter.ts,./fixtures/cases-ahead.ts,json', '--output', path.join(tmp, 'test-results')],
    { IWB_RUN_DIR: path.join(tmp, 'runs'), IWB_REPORT_DIR: report, IWB_AGENT: 'openai', IWB_AGENT_MODEL: 'slow-agent', IWB_AGENT_BASE_URL: fake.baseURL, IWB_LLM_CACHE: 'off', IWB_CASES_AHEAD: '3', PLAYWRIGHT_JSON_OUTPUT_NAME: path.join(tmp, 'pw.json') },
  );
  assert.match(run.output, /running and judging cases ahead in the runner, 3 at once/, run.output.slice(-2000));
  const json = JSON.parse(await fs.readFile(path.join(report, 'report.json'), 'utf8')) as Report;
  assert.equal(json.episodes.total, 3, run.output.slice(-2000));
  assert.deepEqual({ ran: json.episodes.ranThisRun, cached: json.episodes.fromCache }, { ran: 3, cached: 0 });
  assert.equal(arrivals.length, 6, 'two agent turns per episode: no episode ran twice');
  assert.equal(new Set(arrivals.map((a) => a.case)).size, 3);
  const inFlight = Math.max(...arrivals.map((a) => new Set(arrivals.filter((b) => b.at <= a.at && a.at < b.at + DELAY_MS).map((b) => b.case)).size));
  assert.equal(inFlight, 3, `episodes waiting on the model at once, with one worker: ${inFlight}`);
  assert.ok(json.cases.every((c) => c.slots.every((s) => s.status !== 'errored')), 'every slot judged');
  // Who judged each slot (the judging annotation's `by`): the runner, for every slot test of the run.
  const pw = JSON.parse(await fs.readFile(path.join(tmp, 'pw.json'), 'utf8')) as { suites: PwSuite[] };
  const by = testsOf(pw.suites).map((t) => JSON.parse(t.annotations.find((a) => a.type === '_iwb.judging')?.description ?? '{}') as { by?: string });
  assert.ok(by.length > 6, `slot tests: ${by.length}`);
  assert.deepEqual([...new Set(by.map((b) => b.by))], ['runner']);
});
