import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { agentCaused, RefusedPath } from '../sandbox/confined-fs.js';
import { Workspace } from '../agent/workspace.js';
import { removeTempDirs, tempDir } from './agent-support.js';

/**
 * Hostile sites against the harness's writes: a process that swaps a workspace folder for a link while
 * the harness writes and deletes as root, links planted in the workspace, and agent paths that used to
 * make the harness throw (and the case errored).
 */

after(removeTempDirs);

const SWAPPER = fileURLToPath(new URL('./fixtures/link-swapper.mjs', import.meta.url));

/** Runs the swapper on `ws/name` -> `target` until the returned stop is called. */
async function swapping(ws: string, name: string, target: string): Promise<() => Promise<void>> {
  const child = spawn(process.execPath, [SWAPPER, ws, name, target], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  return async () => {
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
  };
}

async function filesUnder(dir: string): Promise<string[]> {
  return (await fs.readdir(dir, { recursive: true })).map(String).sort();
}

describe('the harness never follows a link the site swaps in while it writes', () => {
  test('writes into a folder raced with a link to a host folder never land there', async () => {
    const dir = await tempDir('race-write');
    const victim = path.join(dir, 'victim');
    await fs.mkdir(victim);
    const ws = await Workspace.open(path.join(dir, 'workspace'));
    const stop = await swapping(ws.root, 'x', victim);
    try {
      for (let round = 0; round < 60; round++) {
        await ws.apply(Array.from({ length: 5 }, (_, i) => ({ path: `x/sub${i % 2}/f${round}-${i}.txt`, content: 'pwned' })));
      }
    } finally {
      await stop();
    }
    assert.deepEqual(await filesUnder(victim), [], 'a write followed the swapped-in link');
  });

  test('deletes of a raced folder never remove anything the link names', async () => {
    const dir = await tempDir('race-delete');
    const victim = path.join(dir, 'victim');
    await fs.mkdir(path.join(victim, 'keep'), { recursive: true });
    for (let i = 0; i < 40; i++) await fs.writeFile(path.join(victim, 'keep', `k${i}.txt`), 'keep');
    const ws = await Workspace.open(path.join(dir, 'workspace'));
    const stop = await swapping(ws.root, 'x', victim);
    try {
      for (let round = 0; round < 60; round++) await ws.apply([], ['x/keep', 'x/keep/k1.txt', `x/keep/k${round % 40}.txt`]);
    } finally {
      await stop();
    }
    assert.equal((await filesUnder(path.join(victim, 'keep'))).length, 40, 'a delete followed the swapped-in link');
  });

  test('a hard link planted in the workspace is replaced, never written through', async () => {
    const dir = await tempDir('hardlink');
    const ws = await Workspace.open(path.join(dir, 'workspace'));
    const precious = path.join(dir, 'precious.txt');
    await fs.writeFile(precious, 'precious');
    await fs.link(precious, path.join(ws.root, 'index.html'));
    const r = await ws.apply([{ path: 'index.html', content: '<h1>new</h1>' }]);
    assert.deepEqual(r.errors, []);
    assert.equal(await fs.readFile(precious, 'utf8'), 'precious');
    assert.equal(await fs.readFile(path.join(ws.root, 'index.html'), 'utf8'), '<h1>new</h1>');
  });

  test('a link to a folder is removed by a delete, never followed', async () => {
    const dir = await tempDir('link-delete');
    const victim = path.join(dir, 'victim');
    await fs.mkdir(victim);
    await fs.writeFile(path.join(victim, 'keep.txt'), 'keep');
    const ws = await Workspace.open(path.join(dir, 'workspace'));
    await fs.symlink(victim, path.join(ws.root, 'x'));
    const r = await ws.apply([], ['x']);
    assert.deepEqual(r.deleted, ['x']);
    assert.equal(existsSync(path.join(ws.root, 'x')), false);
    assert.equal(await fs.readFile(path.join(victim, 'keep.txt'), 'utf8'), 'keep');
  });
});

describe('errors the agent causes through its paths are observations, never exceptions', () => {
  test('a file where a folder is needed (index.html/x.txt after index.html), a folder where a file is', async () => {
    const dir = await tempDir('bad-path');
    const ws = await Workspace.open(path.join(dir, 'workspace'));
    await ws.apply([{ path: 'index.html', content: '<h1>a</h1>' }, { path: 'css/a.css', content: 'a' }]);
    const r = await ws.apply(
      [
        { path: 'index.html/x.txt', content: 'x' },
        { path: 'css', content: 'x' },
        { path: `${'n'.repeat(300)}.html`, content: 'x' },
        { path: 'ok.html', content: 'ok' },
      ],
      ['index.html/y'],
    );
    assert.deepEqual(r.written, ['ok.html']);
    assert.equal(r.errors.length, 4, r.errors.join('\n'));
    assert.match(r.errors[0]!, /delete index\.html\/y: "index\.html" is a file, not a folder/);
    assert.match(r.errors[1]!, /write index\.html\/x\.txt: "index\.html" is a file, not a folder/);
    assert.match(r.errors[2]!, /write css: "css" is a folder, not a file/);
    assert.match(r.errors[3]!, /ENAMETOOLONG/);
    assert.doesNotMatch(r.errors[3]!, /\/proc\/self\/fd/);
  });

  test("the harness's own faults (disk full) are thrown, to make the case errored; the agent's come back as messages", async () => {
    const fault = (code: string) => Object.assign(new Error(`${code}: simulated`), { code });
    await assert.rejects(agentCaused(() => Promise.reject(fault('ENOSPC'))), /ENOSPC/);
    await assert.rejects(agentCaused(() => Promise.reject(fault('EIO'))), /EIO/);
    await assert.rejects(agentCaused(() => Promise.reject(new TypeError('a harness bug'))), /harness bug/);
    assert.equal(await agentCaused(() => Promise.reject(fault('ENOTDIR'))), 'ENOTDIR: simulated');
    assert.equal(await agentCaused(() => Promise.reject(new RefusedPath('refused'))), 'refused');
    assert.equal(await agentCaused(() => Promise.resolve()), null);
  });
});
