import assert from 'node:assert/strict';
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { linesOfCode, Workspace } from '../agent/workspace.js';
import { tempDir, removeTempDirs } from './agent-support.js';

after(removeTempDirs);

async function fresh(limits?: { maxFileBytes: number; maxTotalBytes: number; maxFiles: number }) {
  const dir = await tempDir('ws');
  const ws = await Workspace.open(path.join(dir, 'workspace'), limits);
  return { dir, ws };
}

describe('the workspace refuses writes that would leave it', () => {
  test('.., absolute paths, drive letters and NUL bytes', async () => {
    const { dir, ws } = await fresh();
    const r = await ws.apply([
      { path: '../outside.txt', content: 'x' },
      { path: 'a/../../outside2.txt', content: 'x' },
      { path: '/tmp/iwb-absolute.txt', content: 'x' },
      { path: 'C:\\evil.txt', content: 'x' },
      { path: 'nul\0.txt', content: 'x' },
      { path: 'ok/inner.txt', content: 'fine' },
    ]);
    assert.deepEqual(r.written, ['ok/inner.txt']);
    assert.equal(r.errors.length, 5);
    assert.match(r.errors[0]!, /"\.\." is refused/);
    assert.match(r.errors[2]!, /absolute paths are refused/);
    assert.match(r.errors[4]!, /NUL byte/);
    assert.equal(existsSync(path.join(dir, 'outside.txt')), false);
    assert.equal(existsSync(path.join(dir, 'outside2.txt')), false);
    assert.deepEqual(await ws.list(), ['ok/inner.txt']);
  });

  test('writes and deletes through symbolic links are refused', async () => {
    const { dir, ws } = await fresh();
    const outside = path.join(dir, 'elsewhere');
    await fs.mkdir(outside);
    await fs.writeFile(path.join(outside, 'keep.txt'), 'keep');
    await fs.symlink(outside, path.join(ws.root, 'link'));
    await fs.symlink(path.join(outside, 'keep.txt'), path.join(ws.root, 'file-link.txt'));
    const r = await ws.apply(
      [
        { path: 'link/pwned.txt', content: 'x' },
        { path: 'file-link.txt', content: 'overwritten' },
      ],
      ['link/keep.txt'],
    );
    assert.deepEqual(r.written, []);
    assert.equal(r.errors.length, 3);
    for (const e of r.errors) assert.match(e, /symbolic link/);
    assert.equal(existsSync(path.join(outside, 'pwned.txt')), false);
    assert.equal(await fs.readFile(path.join(outside, 'keep.txt'), 'utf8'), 'keep');
  });

  test('deleting outside or the folder itself is refused; a delete inside works', async () => {
    const { dir, ws } = await fresh();
    await fs.writeFile(path.join(dir, 'precious.txt'), 'p');
    await ws.apply([{ path: 'old.html', content: 'x' }]);
    const r = await ws.apply([], ['../precious.txt', '.', '', 'old.html']);
    assert.deepEqual(r.deleted, ['old.html']);
    assert.equal(r.errors.length, 3);
    assert.ok(existsSync(path.join(dir, 'precious.txt')));
    assert.ok(existsSync(ws.root));
  });
});

describe('the workspace limits', () => {
  test('per file, per workspace and file count', async () => {
    const { ws } = await fresh({ maxFileBytes: 100, maxTotalBytes: 250, maxFiles: 3 });
    const big = await ws.apply([{ path: 'big.txt', content: 'x'.repeat(101) }]);
    assert.match(big.errors[0]!, /101 bytes exceeds the per-file limit of 100/);
    const fill = await ws.apply([
      { path: 'a.txt', content: 'a'.repeat(100) },
      { path: 'b.txt', content: 'b'.repeat(100) },
      { path: 'c.txt', content: 'c'.repeat(100) },
    ]);
    assert.deepEqual(fill.written, ['a.txt', 'b.txt']);
    assert.match(fill.errors[0]!, /would exceed 250 bytes/);
    // Overwriting an existing file counts its new size, not both.
    assert.deepEqual((await ws.apply([{ path: 'a.txt', content: 'A'.repeat(100) }])).written, ['a.txt']);
    await ws.apply([{ path: 'd.txt', content: 'd' }]);
    const many = await ws.apply([{ path: 'e.txt', content: 'e' }]);
    assert.match(many.errors[0]!, /already holds 3 files \(limit 3\)/);
  });

  test('node_modules is neither listed nor counted; lines of code skip build output', async () => {
    const { ws } = await fresh({ maxFileBytes: 1000, maxTotalBytes: 1000, maxFiles: 5 });
    await fs.mkdir(path.join(ws.root, 'node_modules', 'pkg'), { recursive: true });
    for (let i = 0; i < 10; i++) await fs.writeFile(path.join(ws.root, 'node_modules', 'pkg', `${i}.js`), 'x'.repeat(500));
    const r = await ws.apply([
      { path: 'index.html', content: '<h1>a</h1>\n\n<p>b</p>\n' },
      { path: 'dist/bundle.js', content: 'one();\ntwo();\n' },
    ]);
    assert.deepEqual(r.errors, []);
    assert.deepEqual(await ws.list(), ['dist/bundle.js', 'index.html']);
    assert.equal(await linesOfCode(ws), 2);
  });

  test('writes into node_modules or .git are refused; everything else on disk counts, nested node_modules and .git too', async () => {
    const { ws } = await fresh({ maxFileBytes: 1000, maxTotalBytes: 100_000, maxFiles: 6 });
    const refused = await ws.apply([
      { path: 'node_modules/evil/index.js', content: 'x' },
      { path: 'src/.git/objects/aa', content: 'x' },
      { path: 'lib/Node_Modules/x.js', content: 'x' },
    ]);
    assert.deepEqual(refused.written, []);
    assert.equal(refused.errors.length, 3);
    assert.match(refused.errors[0]!, /"node_modules" is refused: packages are installed by the harness/);
    assert.match(refused.errors[1]!, /"\.git" is refused/);
    // What a build script (not the protocol) left on disk: a vendored node_modules and a .git.
    await fs.mkdir(path.join(ws.root, 'vendor', 'node_modules'), { recursive: true });
    await fs.mkdir(path.join(ws.root, '.git'), { recursive: true });
    for (let i = 0; i < 3; i++) await fs.writeFile(path.join(ws.root, 'vendor', 'node_modules', `${i}.js`), 'x');
    for (let i = 0; i < 2; i++) await fs.writeFile(path.join(ws.root, '.git', `${i}`), 'x');
    assert.deepEqual(await ws.usage(), { files: 5, bytes: 5 });
    const r = await ws.apply([
      { path: 'a.html', content: 'a' },
      { path: 'b.html', content: 'b' },
    ]);
    assert.deepEqual(r.written, ['a.html']);
    assert.match(r.errors[0]!, /already holds 6 files \(limit 6\)/);
  });
});
