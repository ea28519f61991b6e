import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { LiveSite } from '../site/live-site.js';
import { checkSiteQuota, DEFAULT_SITE_QUOTA, SiteOverQuota, type SiteQuota } from '../site/site-quota.js';
import type { SiteOptions } from '../site/site.js';
import { removeTempDirs, tempDir } from './agent-support.js';

/**
 * The running site against the harness's writes and the disk: no site process runs while the harness
 * writes, what the site's processes write is measured against a quota, and nothing starts or writes
 * after the episode has ended.
 */

after(removeTempDirs);

const FAST: SiteOptions = { installTimeoutMs: 30_000, buildTimeoutMs: 30_000, startTimeoutMs: 15_000 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function project(files: Record<string, string>): Promise<string> {
  const root = path.join(await tempDir('live'), 'workspace');
  await fs.mkdir(root);
  for (const [p, content] of Object.entries(files)) await fs.writeFile(path.join(root, p), content);
  return root;
}

// A server that keeps writing into its workspace, as one that swaps links would keep acting.
const BEATING = `import fs from 'node:fs'; import http from 'node:http';
setInterval(() => { try { fs.writeFileSync('beat.txt', String(Date.now()) + Math.random()); } catch {} }, 5);
http.createServer((q, r) => r.end('<title>beating</title>')).listen(Number(process.env.PORT), '127.0.0.1');
`;

describe('no site process runs while the harness writes', () => {
  test('edit stops the running server (and what it started) before the change, and nothing writes meanwhile', async () => {
    const root = await project({ 'package.json': JSON.stringify({ type: 'module', scripts: { start: 'node server.mjs' } }), 'server.mjs': BEATING });
    const live = new LiveSite(root, FAST);
    try {
      const site = await live.restart();
      assert.equal(site.mode, 'start', site.problems.join('\n'));
      await sleep(100);
      const seen = await live.edit(async () => {
        const first = await fs.readFile(path.join(root, 'beat.txt'), 'utf8');
        await sleep(400);
        return [first, await fs.readFile(path.join(root, 'beat.txt'), 'utf8')];
      });
      assert.equal(seen[0], seen[1], 'a site process wrote into the workspace while the harness was writing');
      const again = await live.ensure();
      assert.match(await (await fetch(again.url)).text(), /beating/, 'the site starts again after the change');
    } finally {
      await live.end();
    }
  });

  test('after the episode ended, the site is not started again and the workspace not written', async () => {
    const root = await project({ 'index.html': '<h1>hi</h1>' });
    const live = new LiveSite(root);
    await live.restart();
    await live.end();
    await assert.rejects(live.ensure(), /the episode is over/);
    await assert.rejects(live.edit(() => fs.writeFile(path.join(root, 'late.html'), 'late')), /the episode is over/);
    await assert.rejects(fs.access(path.join(root, 'late.html')));
  });
});

describe('what the site writes counts against a quota', () => {
  const small: SiteQuota = { files: 50, bytes: 100_000, installed: DEFAULT_SITE_QUOTA.installed };

  test('a server that writes past the quota while it runs: measured when it stops', async () => {
    const root = await project({ 'index.html': '<h1>hi</h1>' });
    const live = new LiveSite(root, {}, small);
    await live.restart();
    // What a site process would leave while the site runs (a static site has none, so the test writes it).
    await fs.writeFile(path.join(root, 'junk.bin'), Buffer.alloc(200_000));
    await assert.rejects(live.close(), (e: Error) => e instanceof SiteOverQuota && /holds 2 files, 2000\d\d bytes, over the quota of 50 files, 100000 bytes/.test(e.message));
  });

  test('a start script that fills the workspace before it serves: refused when the site starts', async () => {
    const server = `import fs from 'node:fs'; import http from 'node:http';
for (let i = 0; i < 80; i++) fs.writeFileSync('junk-' + i + '.txt', 'x');
http.createServer((q, r) => r.end('ok')).listen(Number(process.env.PORT), '127.0.0.1');`;
    const root = await project({ 'package.json': JSON.stringify({ type: 'module', scripts: { start: 'node server.mjs' } }), 'server.mjs': server });
    const live = new LiveSite(root, FAST, small);
    try {
      await assert.rejects(live.restart(), (e: Error) => e instanceof SiteOverQuota && /holds 8\d files/.test(e.message));
    } finally {
      await live.end().catch(() => undefined);
    }
  });

  test('node_modules has its own quota; a link is counted as one file, never followed', async () => {
    const root = await project({ 'index.html': '<h1>hi</h1>' });
    await fs.mkdir(path.join(root, 'node_modules', 'big'), { recursive: true });
    await fs.writeFile(path.join(root, 'node_modules', 'big', 'a.bin'), Buffer.alloc(150_000));
    await checkSiteQuota(root, { ...small, installed: { files: 10, bytes: 200_000 } });
    await assert.rejects(checkSiteQuota(root, { ...small, installed: { files: 10, bytes: 100_000 } }), /node_modules holds 1 files, 150000 bytes/);
    const host = await tempDir('host');
    for (let i = 0; i < 100; i++) await fs.writeFile(path.join(host, `${i}.txt`), 'x');
    await fs.symlink(host, path.join(root, 'linked'));
    await checkSiteQuota(root, small);
  });
});
