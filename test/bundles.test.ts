import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { rootEachHooks, unitBundles, writeBundle } from './bundles.js';

const SLOW_FIRST = `import { test } from 'node:test';
test('a slow test of another file', async () => { await new Promise((r) => setTimeout(r, 200)); });
`;
// The before hook takes a while, as starting a fake server does: the other file's test ends first.
const ROOT_HOOKS = `import { after, afterEach, before, test } from 'node:test';
let server;
before(async () => { await new Promise((r) => setTimeout(r, 300)); server = { reset() {} }; });
after(() => { server = undefined; });
afterEach(() => { server.reset(); });
test('its own test', () => {});
`;

/** The failed tests of a bundle run as test/run.ts runs it, in a node of its own: run() inside a test reports nothing. */
async function failedIn(dir: string, files: string[]): Promise<string[]> {
  const entry = await writeBundle(files, dir, 0);
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const r = spawnSync(process.execPath, ['--test', '--test-reporter=tap', entry], { env, encoding: 'utf8' });
  return [...r.stdout.matchAll(/^not ok \d+ - (.+)$/gm)].map((m) => m[1]!).filter((n) => !n.endsWith('.mjs'));
}

test('a file whose top-level afterEach would run around another file\'s tests is not bundled (the leak is real)', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-bundle-'));
  try {
    await fs.writeFile(path.join(dir, 'slow.test.mjs'), SLOW_FIRST);
    await fs.writeFile(path.join(dir, 'hooks.test.mjs'), ROOT_HOOKS);
    // Why the rule exists: bundled after another file, the hook runs after that file's test, before its own before has ended.
    assert.deepEqual(await failedIn(dir, ['slow.test.mjs', 'hooks.test.mjs']), ['a slow test of another file']);
    assert.deepEqual(await failedIn(dir, ['slow.test.mjs']), []);
    assert.deepEqual(rootEachHooks(ROOT_HOOKS), ['afterEach']);
    // test/run.ts bundles what unitBundles gives, and runs the rest alone.
    await fs.writeFile(path.join(dir, 'plain.test.mjs'), SLOW_FIRST);
    assert.deepEqual(unitBundles(['hooks.test.mjs', 'plain.test.mjs', 'slow.test.mjs'], dir), [['plain.test.mjs', 'slow.test.mjs']]);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test('root each-hooks are found at the top level only; a suite\'s own hooks stay in its suite', () => {
  assert.deepEqual(rootEachHooks('beforeEach(() => {});\nafterEach(() => {});'), ['beforeEach', 'afterEach']);
  assert.deepEqual(rootEachHooks("describe('x', () => {\n  beforeEach(() => {});\n});\nbefore(() => {});"), []);
});
