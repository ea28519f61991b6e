import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import globalSetup, { shareCompiledCode } from '../fixtures/global-setup.js';
import { installRunContext } from '../config/run-context.js';
import { startRun } from '../launch/start.js';

test('the run names a compile cache for its workers, and keeps a folder the user named', () => {
  const env: NodeJS.ProcessEnv = {};
  shareCompiledCode(env, '/scratch');
  assert.equal(env.NODE_COMPILE_CACHE, path.join('/scratch', 'iwb-compile-cache'));
  const own: NodeJS.ProcessEnv = { NODE_COMPILE_CACHE: '/mine' };
  shareCompiledCode(own, '/scratch');
  assert.equal(own.NODE_COMPILE_CACHE, '/mine');
});

// Node 20 has no compile cache and ignores the variable; on 22.1 or later a child started with it uses it.
test('a process started with the variable keeps its compiled code there', { skip: !('getCompileCacheDir' in module) && `Node ${process.version} has no compile cache` }, async () => {
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-compile-cache-'));
  try {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH };
    shareCompiledCode(env, tmp);
    const dir = execFileSync(process.execPath, ['-e', "console.log(require('node:module').getCompileCacheDir() ?? '')"], { env, encoding: 'utf8' }).trim();
    assert.ok(dir.startsWith(path.join(tmp, 'iwb-compile-cache')), `the child's compile cache is ${JSON.stringify(dir)}`);
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
});

// The variable only helps if the run's own setup sets it before Playwright forks its workers.
test('the run\'s global setup leaves the compile cache in the environment its workers inherit', async () => {
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-setup-'));
  const saved = { ...process.env };
  try {
    for (const name of Object.keys(process.env)) if (name.startsWith('IWB_') || name === 'NODE_COMPILE_CACHE') delete process.env[name];
    // No model role (so no preflight) and a browser endpoint already named (so no browser is launched).
    Object.assign(process.env, { IWB_AGENT: 'null', IWB_RUN_DIR: path.join(tmp, 'runs'), IWB_BROWSER_WS: 'ws://127.0.0.1:9/unused' });
    // As playwright.config.ts does in the runner: the settings checked and frozen, then handed to global setup.
    const { run } = await startRun(process.env, process.cwd());
    installRunContext({ run, env: process.env });
    const teardown = await globalSetup();
    await teardown();
    assert.equal(process.env.NODE_COMPILE_CACHE, path.join(os.tmpdir(), 'iwb-compile-cache'));
    assert.ok(process.env.IWB_RUN_ID, 'the run id is set beside it');
  } finally {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
    await fs.rm(tmp, { recursive: true, force: true });
  }
});
