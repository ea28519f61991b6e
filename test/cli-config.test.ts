import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { configCommand } from '../cli/config.js';
import { initCommand } from '../cli/init.js';
import { main, version } from '../cli/main.js';
import { UsageError } from '../cli/io.js';
import { capture } from './cli-capture.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

test('cli: --help and --version at every level, strict flags, usage errors without a stack', async () => {
  for (const argv of [['--version'], ['dataset', '--version'], ['compare', 'x', '-V']]) {
    const io = capture();
    assert.equal(await main(argv, io), 0);
    assert.equal(io.outText(), `iwb ${version()}`);
  }
  for (const argv of [[], ['--help'], ['som', '--help'], ['personas', 'mutate', '-h'], ['config', '--help'], ['init', '--help']]) {
    const io = capture();
    assert.equal(await main(argv, io), 0, argv.join(' '));
    assert.match(io.outText(), /^usage: iwb /, argv.join(' '));
  }
  const io = capture();
  assert.equal(await main(['dataset', 'check', 'builtin', '--jsn'], io), 2);
  assert.match(io.errText(), /^iwb dataset: Unknown option '--jsn' \(flags: --json\)$/);
  const io2 = capture();
  assert.equal(await main(['frobnicate'], io2), 2);
  assert.match(io2.errText(), /unknown command "frobnicate"/);
  await assert.rejects(configCommand(['--bogus'], capture()), UsageError);
});

test('cli: init writes a starter that the loader accepts; config prints values, masked keys and sources', async () => {
  // Inside the checkout: the starter imports its type from ./config/, as it will in a user's clone.
  const dir = await fs.mkdtemp(path.join(ROOT, '.iwb-init-test-'));
  try {
    const io = capture();
    assert.equal(await initCommand([], io, dir), 0);
    const written = path.join(dir, 'iwb.config.ts');
    const starter = await fs.readFile(written, 'utf8');
    // Generated from the settings registry and the data: the task count and the agent list are not hand-kept.
    const tasks = (await fs.readdir(path.join(ROOT, 'tasks'))).length;
    assert.match(starter, new RegExp(`builtin: ${tasks} tasks with deterministic probes`));
    assert.match(starter, /IWB_AGENT: the agent adapter: .*openai:paper/);
    assert.match(starter, /\/\/ IWB_PRICES: .*\n {2}\/\/ prices: /);
    await fs.writeFile(written, (await fs.readFile(written, 'utf8')).replace("'./config/file-schema.js'", "'../config/file-schema.js'").replace('roles: {', "roles: {\n    judge: { model: 'j-1', baseURL: 'http://127.0.0.1:1/v1', apiKeyEnv: 'TEST_JUDGE_KEY' },"));
    await assert.rejects(initCommand([], capture(), dir), /exists; pass --force/);
    const out = capture();
    const env = { TEST_JUDGE_KEY: 'sk-test-0123456789abcd', IWB_WORKERS: '1' };
    assert.equal(await configCommand(['--json'], out, env, dir), 0);
    const printed = out.outText();
    assert.ok(!printed.includes('sk-test-0123456789abcd'), 'the key never appears');
    const values = (JSON.parse(printed) as { values: { key: string; value: unknown; source: string }[] }).values;
    const row = (k: string) => values.find((v) => v.key === k);
    assert.deepEqual(row('agent'), { key: 'agent', value: 'reference', source: 'file agent' });
    assert.deepEqual(row('workers'), { key: 'workers', value: 1, source: 'env IWB_WORKERS' });
    assert.deepEqual(row('roles.judge.model'), { key: 'roles.judge.model', value: 'j-1', source: 'file roles.judge.model' });
    assert.deepEqual(row('roles.judge.apiKey'), { key: 'roles.judge.apiKey', value: '****abcd (22 chars)', source: 'env TEST_JUDGE_KEY (named by file roles.judge.apiKeyEnv)' });
    assert.equal(row('reportDir')?.source, 'default');
    const vars = capture();
    await configCommand(['--vars'], vars, {}, dir);
    assert.match(vars.outText(), /IWB_<ROLE>_MODEL/);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});
