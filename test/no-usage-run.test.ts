import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { compareCommand } from '../cli/compare.js';
import { RunRecordSchema } from '../fixtures/run-record.js';
import type { Report } from '../reporters/report.js';
import { playwright } from './bench-support.js';
import { capture } from './cli-capture.js';
import { lastUserText, reply, schemaName, start, type FakeServer } from '../testkit/fake-server.js';

/**
 * One real run against a server like Ollama behind a strict proxy: no usage object in any reply and
 * json_schema refused. The run's terminal, report.json, report.md, the summary page and `iwb compare` say
 * the tokens and cost are unknown, and after the preflight no request is refused: each structured role
 * meets json_schema once, in the preflight, and the workers start in the mode it found.
 */
let fake: FakeServer;
before(async () => {
  fake = await start();
});
after(async () => {
  await fake.close();
});

test('a run against a server without usage and without json_schema: unknown everywhere, 0 refused requests after the preflight', async () => {
  fake.reset();
  fake.quirks({ noUsage: true, refuseJsonSchema: true });
  let asked = false;
  fake.script((req) => {
    const name = schemaName(req);
    if (name === 'health_check') return reply.json({ ok: true, colour: 'red' });
    if (name === 'retrieve_slots') return reply.json({ slot_ids: [], asks_for_everything: false });
    if (name === 'containment_check') return reply.json({ leaked_slot_ids: [] });
    if (lastUserText(req).includes('Call the ping tool')) return reply.tools([{ name: 'ping', arguments: {} }]);
    if (!req.body.tools) return reply.text('OK');
    if (!asked) {
      asked = true;
      return reply.tools([{ name: 'clarify', arguments: { question: 'Which colour should the button be?' } }]);
    }
    return reply.tools([{ name: 'submit', arguments: {} }]);
  });
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-no-usage-'));
  const report = path.join(tmp, 'report');
  const env = {
    IWB_RUN_DIR: path.join(tmp, 'runs'), IWB_REPORT_DIR: report, IWB_AGENT: 'openai', IWB_AGENT_MODEL: 'local', IWB_AGENT_BASE_URL: fake.baseURL,
    IWB_USER_MODEL: 'local-user', IWB_USER_BASE_URL: fake.baseURL, IWB_STEP_CAP: '4', IWB_LLM_CACHE: 'off', IWB_MAX_ERRORED: '5%',
  };
  // Its own test-results: Playwright empties its output folder at the start, and another run may be using the default one.
  const run = await playwright(['test', '--project=p-min', '--grep', '@task-tip-calculator', '--workers=1', '--reporter=./reporters/iwb-reporter.ts', '--output', path.join(tmp, 'test-results')], env);
  process.stdout.write(`# run output (tail):\n${run.output.slice(-1500).replace(/^/gm, '#   ')}\n`);
  const json = JSON.parse(await fs.readFile(path.join(report, 'report.json'), 'utf8')) as Report;
  assert.equal(json.episodes.total, 1, run.output.slice(-2000));
  assert.deepEqual(json.overall.usage.agent, { prompt: null, completion: null, costUsd: null }, JSON.stringify(json.overall.usage));
  assert.deepEqual(json.overall.usage.user, { prompt: null, completion: null, costUsd: null }, JSON.stringify(json.overall.usage));
  assert.equal(json.overall.costUsd, null);
  assert.match(run.output, /unknown/);
  assert.match(await fs.readFile(path.join(report, 'report.md'), 'utf8'), /cost unknown/);
  assert.match(await fs.readFile(path.join(report, 'summary.html'), 'utf8'), /unknown/);
  const io = capture();
  await compareCommand([report], io);
  assert.match(io.outText(), /\bunknown\s*$/m, io.outText());
  process.stdout.write(`# iwb compare:\n${io.outText().replace(/^/gm, '#   ')}\n`);

  // The user role is the structured one here: it meets json_schema in the preflight only.
  const schemaRequests = fake.requests.filter((r) => r.body.response_format?.type === 'json_schema');
  const structured = fake.requests.filter((r) => r.body.response_format);
  assert.ok(structured.length > schemaRequests.length, 'the worker made structured calls');
  assert.ok(schemaRequests.every((r) => schemaName(r) === 'health_check'), `refused outside the preflight: ${schemaRequests.map((r) => schemaName(r)).join(', ')}`);
  process.stdout.write(`# ${structured.length} structured requests, ${schemaRequests.length} with json_schema (all the preflight's health_check)\n`);

  // run.json names the environment the workers keyed the episodes with: the mode the preflight found, not `auto`.
  const record = RunRecordSchema.parse(JSON.parse(await fs.readFile(path.join(tmp, 'runs', 'run.json'), 'utf8')));
  const userRole = (record.runs.at(-1)?.environment as { roles?: { user?: { jsonMode?: string } } } | undefined)?.roles?.user;
  assert.ok(userRole && userRole.jsonMode !== 'auto' && userRole.jsonMode !== 'json_schema', `run.json's user role: ${JSON.stringify(userRole)}`);
});
