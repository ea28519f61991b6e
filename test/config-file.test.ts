import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { resolveConfig } from '../config/file.js';
import { startRun, StartError } from '../launch/start.js';
import { EnvError } from '../config/env-check.js';
import { readRoles } from '../config/roles.js';
import { RUN_CONFIG_VARIABLE, readRunConfig, writeRunConfig } from '../config/run-config.js';
import { readRunState } from '../config/run-state.js';
import { runEnv } from '../config/env.js';
import { readSettings } from '../config/settings.js';
import { releaseFile } from '../config/public-data.js';
import { DEFAULT_SLOTS_IN_FLIGHT } from '../config/judge-settings.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { path: PUBLIC, skip: noPublic } = releaseFile('interactweb-bench', 'test_mini.jsonl', process.env);
const tmp = () => fs.mkdtemp(path.join(os.tmpdir(), 'iwb-config-'));

const STARTER = `import type { IwbConfig } from '${path.join(ROOT, 'config/file-schema.ts')}';
export default {
  agent: 'openai',
  runDir: 'runs',
  judge: { mode: 'case' },
  roles: {
    agent: { model: 'gpt-4o', baseURL: 'http://127.0.0.1:9/v1', apiKeyEnv: 'MY_AGENT_KEY', temperature: 0.2, seed: 7 },
    judge: { model: 'judge-m', baseURL: 'http://127.0.0.1:9/v1' },
  },
} satisfies IwbConfig;
`;

test('config file: iwb.config.ts is read, the environment wins, keys come from the named variable, and each value says where it came from', async () => {
  const dir = await tmp();
  await fs.writeFile(path.join(dir, 'iwb.config.ts'), STARTER);
  const r = await resolveConfig({ MY_AGENT_KEY: 'sk-secret', IWB_RUN_DIR: 'env-runs' }, dir);
  assert.equal(r.file, path.join(dir, 'iwb.config.ts'));
  assert.equal(r.env.IWB_AGENT, 'openai');
  assert.equal(r.env.IWB_RUN_DIR, 'env-runs', 'the environment overrides the file');
  assert.deepEqual(r.sources.get('IWB_RUN_DIR'), { from: 'env' });
  assert.deepEqual(r.sources.get('IWB_AGENT_MODEL'), { from: 'file', key: 'roles.agent.model' });
  assert.deepEqual(r.sources.get('IWB_AGENT_API_KEY'), { from: 'file-key', key: 'roles.agent.apiKeyEnv', variable: 'MY_AGENT_KEY' });
  const roles = readRoles(r.env);
  assert.equal(roles.agent?.apiKey, 'sk-secret');
  assert.equal(roles.agent?.temperature, 0.2);
  assert.equal(roles.agent?.seed, 7);
  assert.equal(roles.judge?.model, 'judge-m');
  assert.equal(readSettings(r.env, dir).runDir, path.join(dir, 'env-runs'));
});

test('config file: JSON too; mistakes name the file and the field; a key in the file is refused', async () => {
  const dir = await tmp();
  const file = path.join(dir, 'iwb.config.json');
  const bad = async (config: unknown, pattern: RegExp, env: Record<string, string> = {}) => {
    await fs.writeFile(file, JSON.stringify(config));
    await assert.rejects(resolveConfig(env, dir), (e: Error) => e.message.startsWith(file) && pattern.test(e.message), JSON.stringify(config));
  };
  await bad({ roles: { agent: { model: 'm', apiKey: 'sk-1' } } }, /roles\.agent\.apiKey: a key never goes in the config file/);
  await bad({ roles: { agent: { model: 'm', temperature: 'hot' } } }, /field roles\.agent\.temperature/);
  await bad({ agnet: 'openai' }, /unknown key agnet \(known: dataset, agent/);
  await bad({ roles: { agent: { model: 'm', apiKeyEnv: 'NOT_SET_ANYWHERE' } } }, /roles\.agent\.apiKeyEnv names NOT_SET_ANYWHERE, which is not set/);
  await fs.writeFile(file, '{ "agent": ');
  await assert.rejects(resolveConfig({}, dir), /not valid JSON/);
  await fs.writeFile(file, JSON.stringify({ workers: 2, dataset: 'builtin' }));
  assert.equal((await resolveConfig({}, dir)).env.IWB_WORKERS, '2');
  await fs.writeFile(path.join(dir, 'iwb.config.ts'), 'export default {};');
  await assert.rejects(resolveConfig({}, dir), /both .* exist: keep one/);
});

test('run start: a typo, a bad value, a missing judge for a probe-less dataset each stop the run with one message', async () => {
  const dir = await tmp();
  await assert.rejects(startRun({ IWB_AGNET: 'openai' }, dir), (e: Error) => e instanceof EnvError && /did you mean IWB_AGENT\?/.test(e.message));
  await assert.rejects(startRun({ IWB_WORKERS: 'abc' }, dir), (e: Error) => e instanceof StartError && /IWB_WORKERS/.test(e.message));
  await assert.rejects(startRun({ IWB_JUDGE_MODE: 'both' }, dir), (e: Error) => e instanceof StartError && /IWB_JUDGE_MODE/.test(e.message));
  // One knob for the judge's session: the paper profile's judge is a case session, so a per-slot one stops the run.
  await assert.rejects(startRun({ IWB_PROFILE: 'paper', IWB_JUDGE_MODE: 'slot' }, dir), (e: Error) => e instanceof StartError && /IWB_JUDGE_MODE: slot .*IWB_PROFILE=paper allows \(case/.test(e.message));
  await assert.rejects(startRun({ IWB_PRICES: '{nope' }, dir), (e: Error) => e instanceof StartError && /IWB_PRICES/.test(e.message));
  await assert.rejects(startRun({ IWB_AGENT_NAME: 'mine' }, dir), (e: Error) => e instanceof StartError && /IWB_AGENT_NAME names a command: agent/.test(e.message));
  await assert.rejects(startRun({ IWB_CHROMIUM: '/no/such/chrome' }, dir), (e: Error) => /IWB_CHROMIUM: no such file/.test(e.message));
  const started = await startRun({}, dir);
  assert.match(started.notes.join('\n'), /agent reference \(the default/);
  assert.match(started.notes.join('\n'), /browser \//);
  if (!noPublic) {
    await assert.rejects(startRun({ IWB_DATASET: PUBLIC }, dir), (e: Error) => e instanceof StartError && /needs a judge model.*IWB_JUDGE_MODEL/.test(e.message));
  }
});

test("a worker's settings: read from the run config the runner froze, they equal the runner's, config file included, whatever the worker's environment says", async () => {
  // playwright.config.ts: the runner runs startRun and writes the settings it checked into the run folder; a
  // worker reads that file (named by IWB_RUN_CONFIG), never its own settings variables.
  const dir = await tmp();
  await fs.writeFile(path.join(dir, 'iwb.config.ts'), `export default { runDir: 'file-runs', workers: 3, judge: { mode: 'case', stepCap: 4 }, roles: { judge: { model: 'judge-m', baseURL: 'http://127.0.0.1:9/v1', apiKeyEnv: 'MY_JUDGE_KEY' } } };\n`);
  const runnerEnv: NodeJS.ProcessEnv = { MY_JUDGE_KEY: 'sk-judge' };
  const started = await startRun(runnerEnv, dir);
  const file = writeRunConfig(started.settings.runDir, started.run);
  assert.ok(file.startsWith(path.join(dir, 'file-runs', 'run-configs')), `in the run folder: ${file}`);
  assert.doesNotMatch(await fs.readFile(file, 'utf8'), /sk-judge/, 'no key is written to the run folder');
  // A worker whose own environment names another profile and run folder still runs the runner's settings.
  // Its model roles too: only the key comes from its environment.
  const workerEnv = { ...runnerEnv, TEST_WORKER_INDEX: '0', IWB_PROFILE: 'paper', IWB_RUN_DIR: 'elsewhere', IWB_JUDGE_MODEL: 'other-judge', IWB_JUDGE_BASE_URL: 'http://127.0.0.1:8/v1', IWB_JUDGE_CONCURRENCY: '99', [RUN_CONFIG_VARIABLE]: file };
  const worker = runEnv(readRunConfig(readRunState(workerEnv).runConfig), workerEnv);
  assert.deepEqual(worker.settings, started.settings);
  assert.equal(worker.settings.profile, 'iwb');
  assert.equal(started.settings.workers, 3, 'the file was read');
  assert.deepEqual(worker.judge, { mode: 'case', stepCap: 4, slotsInFlight: DEFAULT_SLOTS_IN_FLIGHT });
  assert.deepEqual(worker.roles, readRoles(runnerEnv));
  assert.equal(worker.roles.judge?.model, 'judge-m');
  assert.equal(worker.roles.judge?.baseURL, 'http://127.0.0.1:9/v1');
  assert.equal(worker.roles.judge?.apiKey, 'sk-judge', 'the key, and only the key, from the environment');
  assert.deepEqual(worker.limits, {}, 'no limit the runner did not see');
  assert.throws(() => readRunConfig(undefined), /IWB_RUN_CONFIG/);
  // A run config that holds a key is not a run config (a hand-edited or foreign file).
  const keyed = path.join(dir, 'keyed.json');
  await fs.writeFile(keyed, JSON.stringify({ ...JSON.parse(await fs.readFile(file, 'utf8')), variables: { OPENAI_API_KEY: 'sk-x' } }));
  assert.throws(() => readRunConfig(keyed), /never written to a run config/);
});
