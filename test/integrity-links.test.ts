import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Browser } from '@playwright/test';
import { runProbe } from '../judge/probe-runner.js';
import { BuiltinTaskFileSchema } from '../slots/builtin-schema.js';
import { serveStatic } from '../site/site-server.js';
import { startSite, type SiteOptions, type StartedSite } from '../site/site.js';
import { launchBrowser, removeTempDirs, tempDir } from './agent-support.js';

/**
 * "Score by linking the answer": a site that links the task's reference site (or any host folder) into
 * what the harness serves. Each attack is judged with the task's own probes: it must score nothing.
 */

const TASKS = fileURLToPath(new URL('../tasks/', import.meta.url));
const TASK = 'tip-calculator';
const REFERENCE = path.join(TASKS, TASK, 'site');
const task = BuiltinTaskFileSchema.parse(JSON.parse(await fs.readFile(path.join(TASKS, TASK, 'task.json'), 'utf8')));
const positives = task.slots.filter((s) => s.assertion_type === 'POSITIVE');
const FAST: SiteOptions = { installTimeoutMs: 30_000, buildTimeoutMs: 30_000, startTimeoutMs: 10_000 };

let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await Promise.all([browser.close(), removeTempDirs()]);
});

/** The share of the task's POSITIVE probes that pass on the site (its TCR with the probes as judge). */
async function tcr(url: string): Promise<number> {
  let passed = 0;
  for (const slot of positives) {
    const context = await browser.newContext();
    try {
      if ((await runProbe(await context.newPage(), url, slot.probe!, { timeoutMs: 500 })).passed) passed++;
    } finally {
      await context.close();
    }
  }
  return passed / positives.length;
}

async function workspace(files: Record<string, string>, links: Record<string, string> = {}): Promise<string> {
  const root = path.join(await tempDir('link'), 'workspace');
  await fs.mkdir(root);
  for (const [p, content] of Object.entries(files)) await fs.writeFile(path.join(root, p), content);
  for (const [p, target] of Object.entries(links)) await fs.symlink(target, path.join(root, p));
  return root;
}

async function judged(root: string): Promise<{ site: StartedSite; tcr: number; home: number }> {
  const site = await startSite(root, FAST);
  try {
    return { site, tcr: await tcr(site.url), home: (await fetch(site.url)).status };
  } finally {
    await site.close();
  }
}

describe('a site that links the reference site scores nothing', () => {
  test('the reference site itself scores 100% (the probes can pass)', async () => {
    const served = await serveStatic(REFERENCE);
    try {
      assert.equal(await tcr(served.url), 1);
    } finally {
      await served.close();
    }
  });

  test('a build script that links dist/ to the reference site: refused, named to the agent, TCR 0', async () => {
    const root = await workspace({ 'package.json': JSON.stringify({ scripts: { build: `ln -s ${REFERENCE} dist` } }) });
    const { site, tcr: score } = await judged(root);
    assert.equal(score, 0);
    assert.notEqual(site.mode, 'build');
    assert.match(site.problems.join('\n'), /left dist\/ as a link out of the site folder/);
  });

  test('dist/ linked before the site starts (no script ran) is not served either: TCR 0', async () => {
    const root = await workspace({ 'package.json': JSON.stringify({ scripts: { build: 'true' } }) }, { dist: REFERENCE });
    assert.equal((await judged(root)).tcr, 0);
  });

  test('a static site whose files link the reference files: every request refused, TCR 0', async () => {
    const links = Object.fromEntries(['index.html', 'app.js', 'style.css'].map((f) => [f, path.join(REFERENCE, f)]));
    const root = await workspace({}, links);
    const { site, tcr: score, home } = await judged(root);
    assert.equal(site.mode, 'static');
    assert.equal(score, 0);
    assert.equal(home, 403);
  });

  test('a dist/ of its own whose index.html links the reference page: refused, TCR 0', async () => {
    const root = await workspace({ 'package.json': JSON.stringify({ scripts: { build: `mkdir -p dist && ln -sf ${REFERENCE}/index.html dist/index.html` } }) });
    assert.equal((await judged(root)).tcr, 0);
  });
});

describe('the static server reads what it opened, not what it checked', () => {
  test('a file swapped for a link to a host file between check and open is never served', async () => {
    const dir = await tempDir('serve-race');
    const secret = path.join(dir, 'secret.txt');
    await fs.writeFile(secret, 'SECRET');
    const root = path.join(dir, 'site');
    await fs.mkdir(root);
    await fs.writeFile(path.join(root, 'page.txt'), 'public');
    const served = await serveStatic(root);
    const swapper = spawn(process.execPath, [fileURLToPath(new URL('./fixtures/file-swapper.mjs', import.meta.url)), path.join(root, 'page.txt'), secret], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => swapper.stdout.once('data', () => resolve()));
    const seen = new Map<string, number>();
    try {
      for (let i = 0; i < 600; i++) {
        const res = await fetch(`${served.url}/page.txt`);
        const body = res.status === 200 ? await res.text() : String(res.status);
        seen.set(body, (seen.get(body) ?? 0) + 1);
      }
    } finally {
      swapper.kill('SIGKILL');
      await served.close();
    }
    assert.equal(seen.get('SECRET'), undefined, `served: ${JSON.stringify([...seen])}`);
    assert.ok((seen.get('public') ?? 0) > 0, `the real file was never served: ${JSON.stringify([...seen])}`);
  });

  test('a FIFO in the site is not opened (it would hang the server), other files still answer', async () => {
    const root = await workspace({ 'index.html': '<h1>ok</h1>' });
    await new Promise<void>((resolve, reject) => spawn('mkfifo', [path.join(root, 'pipe.html')]).once('exit', (c) => (c === 0 ? resolve() : reject(new Error(`mkfifo ${c}`)))));
    const served = await serveStatic(root);
    try {
      assert.equal((await fetch(`${served.url}/pipe.html`, { signal: AbortSignal.timeout(3000) })).status, 404);
      assert.equal(await (await fetch(served.url)).text(), '<h1>ok</h1>');
    } finally {
      await served.close();
    }
  });
});
