import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import type { Browser } from '@playwright/test';
import type { Agent } from '../agent/types.js';
import { readSettings } from '../config/settings.js';
import { getEpisode, type EpisodeRequest } from '../fixtures/episode-cache.js';
import { commandAgentDigest, environmentKey, episodeEnvironment } from '../fixtures/episode-key.js';
import { recordRun, RunRecordSchema } from '../fixtures/run-record.js';
import { InfraError } from '../llm/errors.js';
import type { RoleConfigs } from '../config/roles.js';
import { BAKERY_TASK, exampleCase } from './example-task.js';
import type { SimulatedUser } from '../personas/types.js';

const NO_BROWSER = undefined as unknown as Browser;
const NO_HIDDEN = { trees: [], wholes: [] };
const user: SimulatedUser = { answer: async (q) => ({ question: q, answer: 'ok', retrievedSlotIds: [], leakCheck: { leakedSlotIds: [], method: 'lexical' }, retries: 0, refused: false, tokens: { prompt: 0, completion: 0 }, source: 'offline' }) };
const c = exampleCase(BAKERY_TASK, 'P-MIN', 'Make me a bakery page.');
const tmp = () => fs.mkdtemp(path.join(os.tmpdir(), 'iwb-episode-key-'));

/** An agent that submits at once, or fails with an endpoint error while `down` is set. */
function agent(): Agent & { starts: number; down: boolean } {
  const a = {
    name: 'scripted',
    config: { kind: 'scripted' },
    starts: 0,
    down: false,
    start: async () => {
      a.starts++;
      return {
        next: async () => {
          if (a.down) throw new InfraError('agent', 'connection failed', 4);
          return { action: { type: 'submit' as const } };
        },
      };
    },
  };
  return a;
}

const roles = (over: Partial<RoleConfigs> = {}): RoleConfigs => ({
  agent: { role: 'agent', model: 'gpt-4o', baseURL: 'http://a/v1', apiKey: 'k1' },
  user: { role: 'user', model: 'deepseek-chat', baseURL: 'http://u/v1', apiKey: 'k2', temperature: 0.4 },
  judge: { role: 'judge', model: 'judge-1', baseURL: 'http://j/v1', apiKey: 'k3' },
  ...over,
});

test('the environment key changes with what changes an episode, and with nothing else', () => {
  const settings = readSettings({});
  const key = (r: RoleConfigs, agentSpec = 'openai', who = 'contained') => environmentKey(episodeEnvironment({ ...settings, agent: agentSpec }, r, who, NO_HIDDEN));
  const base = key(roles());
  assert.equal(key(roles()), base, 'stable');
  assert.notEqual(key(roles({ user: { role: 'user', model: 'qwen-max', baseURL: 'http://u/v1', apiKey: 'k2', temperature: 0.4 } })), base, 'the user model');
  assert.notEqual(key(roles({ agent: { role: 'agent', model: 'gpt-4o', baseURL: 'http://other/v1', apiKey: 'k1' } })), base, 'the agent endpoint');
  assert.notEqual(key(roles({ agent: { role: 'agent', model: 'gpt-4o', baseURL: 'http://a/v1', apiKey: 'k1', seed: 7 } })), base, 'sampling');
  assert.notEqual(key(roles({ agent: { role: 'agent', model: 'gpt-4o', baseURL: 'http://a/v1', apiKey: 'k1', maxTokens: 999 } })), base, 'the token limit');
  assert.notEqual(key(roles(), 'openai:artifact'), base, 'the adapter');
  assert.notEqual(key(roles(), 'openai', 'paper'), base, 'the simulated user');
  assert.equal(key(roles({ agent: { role: 'agent', model: 'gpt-4o', baseURL: 'http://a/v1', apiKey: 'rotated' } })), base, 'a new key changes nothing');
  assert.equal(key(roles({ judge: { role: 'judge', model: 'judge-2', apiKey: 'k3' } })), base, 'the judge never speaks in an episode');
  const env = JSON.stringify(episodeEnvironment(settings, roles(), 'contained', NO_HIDDEN));
  assert.ok(!/k1|k2|k3/.test(env), 'no key in what run.json records');
});

test("a command: agent's files are part of the key: editing its script makes a new episode", async () => {
  const dir = await tmp();
  await fs.writeFile(path.join(dir, 'agent.py'), 'print("v1")\n');
  await fs.writeFile(path.join(dir, 'helper.py'), 'X = 1\n');
  const digest = () => commandAgentDigest(`command:python3 ${path.join(dir, 'agent.py')}`, dir, NO_HIDDEN);
  const first = digest();
  assert.ok(first);
  assert.equal(digest(), first);
  await fs.writeFile(path.join(dir, 'helper.py'), 'X = 2\n');
  assert.notEqual(digest(), first, 'a helper beside the script counts');
  assert.equal(commandAgentDigest('openai', dir, NO_HIDDEN), null);
  assert.equal(commandAgentDigest('command:/no/such/program', dir, NO_HIDDEN), null);
});

test('a changed environment, an errored episode and IWB_FRESH each run the episode again; within one run it is shared', async () => {
  const runDir = await tmp();
  const a = agent();
  const req: EpisodeRequest = { case: c, agent: a, browser: NO_BROWSER, user, runDir, stepCap: 5, runId: 'run-1', environmentKey: 'env-A' };

  assert.equal((await getEpisode(req)).cached, false);
  assert.equal((await getEpisode({ ...req, runId: 'run-2' })).cached, true, 'a later run reuses it');
  assert.equal((await getEpisode({ ...req, runId: 'run-2b', environmentKey: 'env-B' })).cached, false, 'another environment runs it again');
  assert.equal(a.starts, 2);

  a.down = true;
  const errored = await getEpisode({ ...req, runId: 'run-3', environmentKey: 'env-C' });
  assert.equal(errored.trajectory.status, 'errored');
  assert.equal(errored.trajectory.runId, 'run-3');
  const sameRun = await getEpisode({ ...req, runId: 'run-3', environmentKey: 'env-C' });
  assert.equal(sameRun.trajectory.status, 'errored', 'the run that errored serves it to its other slot tests');
  assert.equal(sameRun.cached, false, 'read back, it still ran this run: not from the cache');
  assert.equal(a.starts, 3);
  a.down = false;
  const retried = await getEpisode({ ...req, runId: 'run-4', environmentKey: 'env-C' });
  assert.equal(retried.cached, false, 'the next run retries an errored episode');
  assert.equal(retried.trajectory.status, 'submitted');

  const fresh = await getEpisode({ ...req, runId: 'run-5', fresh: true });
  assert.equal(fresh.cached, false, 'IWB_FRESH ignores earlier runs');
  const again = await getEpisode({ ...req, runId: 'run-5', fresh: true });
  assert.equal(again.cached, false, 'but not its own run: read back, not run again, and counted as run this run');
  assert.equal(a.starts, 5);
});

test('run.json says what a run folder holds, one entry per run; an unreadable one is replaced', async () => {
  const runDir = await tmp();
  const entry = (runId: string) => ({ runId, startedAt: '2026-12-04T00:00:00Z', dataset: 'builtin', agent: 'reference', environmentKey: 'abc', environment: { agent: 'reference' }, fresh: false });
  await recordRun(runDir, entry('r1'));
  await recordRun(runDir, entry('r2'));
  const file = path.join(runDir, 'run.json');
  const record = RunRecordSchema.parse(JSON.parse(await fs.readFile(file, 'utf8')));
  assert.deepEqual(record.runs.map((r) => r.runId), ['r1', 'r2']);
  assert.match(record.about, /Episodes/);
  await fs.writeFile(file, '{ not json');
  await recordRun(runDir, entry('r3'));
  assert.deepEqual(RunRecordSchema.parse(JSON.parse(await fs.readFile(file, 'utf8'))).runs.map((r) => r.runId), ['r3']);
});
