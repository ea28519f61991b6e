import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { capture } from './cli-capture.js';
import { personasCommand } from '../cli/personas.js';
import { InfraError } from '../llm/errors.js';
import { reply, schemaName, start, type RecordedRequest } from '../testkit/fake-server.js';
import { preflightAnswer } from '../testkit/fake-quirks.js';
import { releaseFile } from '../config/public-data.js';

const { path: ALL, skip: noData } = releaseFile('interactweb-bench', 'all.jsonl', process.env);

/**
 * Commands that call models build their clients where a run does (llm/run-clients.ts): through the model
 * call cache and the per-role limits. Recorded once, `iwb personas leak-test` replays with its endpoint gone.
 */

let tmp: string;
let dataset: string;
before(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-cli-calls-'));
  if (noData) return;
  const all = await fs.readFile(ALL, 'utf8');
  dataset = path.join(tmp, 'two.jsonl');
  await fs.writeFile(dataset, all.split('\n').slice(0, 2).join('\n') + '\n');
});
after(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

/** A user model that retrieves the first slot it is shown and answers in a sentence that names the question. */
function userModel(req: RecordedRequest) {
  const probe = preflightAnswer(req.body);
  if (probe) return probe;
  const name = schemaName(req);
  if (name === 'retrieve_slots') return reply.json({ slot_ids: [], asks_for_everything: false });
  if (name === 'containment_check') return reply.json({ leaked_slot_ids: [] });
  return reply.text(`About that: keep it simple (${req.body.messages.length} messages).`);
}

test('iwb personas leak-test records its model calls and replays them with the endpoint gone; its per-role limits apply', { skip: noData }, async () => {
  const fake = await start();
  fake.script(userModel);
  const env = (mode: string, baseURL: string) => ({
    IWB_RUN_DIR: path.join(tmp, 'runs'),
    IWB_LLM_CACHE: mode,
    IWB_LLM_CACHE_DIR: path.join(tmp, 'calls'),
    IWB_USER_MODEL: 'cli-user',
    IWB_USER_BASE_URL: baseURL,
    IWB_USER_RPM: '600000',
  });
  const recording = capture();
  assert.equal(await personasCommand(['leak-test', dataset, '--json'], recording, env('record', fake.baseURL)), 0, recording.errText());
  const recorded = JSON.parse(recording.outText()) as { mode: string; turns: number; erroredTurns: number };
  assert.equal(recorded.mode, 'llm');
  assert.equal(recorded.erroredTurns, 0);
  const sent = fake.requests.filter((r) => !preflightAnswer(r.body)).length;
  assert.ok(sent >= recorded.turns, `the user model answered every turn: ${sent} requests for ${recorded.turns} turns`);
  const entries = (await fs.readdir(path.join(tmp, 'calls'), { recursive: true })).filter((f) => f.endsWith('.json') && f !== 'modes.json');
  assert.ok(entries.length > 0 && entries.length <= sent, `calls recorded in IWB_LLM_CACHE_DIR: ${entries.length}`);
  assert.deepEqual(JSON.parse(await fs.readFile(path.join(tmp, 'calls', 'modes.json'), 'utf8')), { IWB_USER_JSON_MODE: 'json_schema' }, 'the preflight\'s finding is kept for a replay');
  assert.ok((await fs.readdir(path.join(tmp, 'runs', 'llm-rate'))).some((f) => f.startsWith('user-')), 'IWB_USER_RPM paced the calls through the run folder\'s pacer');
  const baseURL = fake.baseURL;
  await fake.close();

  const replaying = capture();
  assert.equal(await personasCommand(['leak-test', dataset, '--json'], replaying, env('replay', baseURL)), 0, replaying.errText());
  assert.deepEqual(JSON.parse(replaying.outText()), recorded, 'the same turns and rates, from the recording alone');

  // A replay from an empty cache has nothing to answer with: the first turn stops the command, naming the role and the question.
  await assert.rejects(
    personasCommand(['leak-test', dataset, '--json'], capture(), { ...env('replay', baseURL), IWB_LLM_CACHE_DIR: path.join(tmp, 'no-calls') }),
    (e: Error) => e instanceof InfraError && /^\[user\] IWB_LLM_CACHE=replay: no recorded reply for this request \(model cli-user, "/.test(e.message),
  );
});
