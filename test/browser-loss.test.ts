import assert from 'node:assert/strict';
import { existsSync, promises as fs, readFileSync, readlinkSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser } from '@playwright/test';
import { CHROMIUM_ARGS, readSettings } from '../config/settings.js';
import { keepBrowser, reconnecting } from '../fixtures/shared-browser.js';
import { judgeDespiteBrowserLoss, onceDespiteBrowserLoss } from '../fixtures/browser-loss.js';
import { getCrash } from '../judge/crash-check.js';
import { BrowserLost } from '../site/browser-lost.js';
import { LiveSite } from '../site/live-site.js';
import { VerifyRunner } from '../agent/verify-step.js';
import type { TrajectoryStep } from '../agent/trajectory.js';

/**
 * When Chromium's browser process dies under an agent's page. Simulated for real: the test's site kills the
 * browser process that loads /boom (SIGKILL, as a segfault ends it), so the harness meets a dead browser exactly
 * where a page would take it down. What must hold: the run's shared browser comes back at the same address, the
 * slots the death left without a verdict are judged again in a browser of the case's own (never errored, so
 * never left out of TCR), a site that kills that browser too fails them, and no finding kept beside a trajectory
 * comes from a dead browser.
 */
const options = { executablePath: readSettings(process.env).chromium, args: CHROMIUM_ARGS };

/**
 * Chromium's browser process behind a launched pid: Debian's chromium-headless-shell is a shell script that
 * does not exec, so the pid Playwright knows is the shell's and the browser is its child.
 */
function browserProcess(pid: number): number {
  const exe = (p: number | string) => readlinkSync(`/proc/${p}/exe`);
  if (/chrom/i.test(exe(pid))) return pid;
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  const browser = children.find((c) => /chrom/i.test(exe(c)));
  assert.ok(browser, `no Chromium process under pid ${pid} (${exe(pid)})`);
  return Number(browser);
}

/** Browsers the site may kill, by the pid of their process. */
const victims = new Set<number>();
let killsLeft = 0;
/** 'script': the page's parsing waits on /boom, so the browser dies during the page's load, not after it. */
let loads: 'fetch' | 'script' = 'fetch';
let kills = 0;
let server: http.Server;
let url: string;

before(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/boom') {
      if (killsLeft > 0) {
        killsLeft--;
        for (const pid of victims) {
          kills++;
          victims.delete(pid);
          process.kill(browserProcess(pid), 'SIGKILL');
        }
      }
      return void res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    if (loads === 'script') return void res.end('<!doctype html><title>Boom</title><script src="/boom"></script><h1>Boom</h1>');
    res.end(`<!doctype html><title>Boom</title><h1>Boom</h1><script>fetch('/boom').then(() => { document.body.insertAdjacentHTML('beforeend', '<p id="done">done</p>'); })</script>`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

/** A browser the site may kill: launched as a server so the test knows its process. */
async function killable(): Promise<{ browser: Browser; close(): Promise<void> }> {
  const s = await chromium.launchServer({ ...options, headless: true });
  victims.add(s.process().pid!);
  const browser = await chromium.connect(s.wsEndpoint());
  return { browser, close: () => s.close().catch(() => {}) };
}

/** A stand-in judge: each slot opens the site on a page of its own and "passes" once the page finished its work. */
async function judgeSlots(slots: readonly string[], browser: Browser): Promise<PromiseSettledResult<string>[]> {
  const out: PromiseSettledResult<string>[] = [];
  for (const slot of slots) {
    try {
      const page = await browser.newPage();
      await page.goto(url);
      await page.waitForSelector('#done', { timeout: 5_000 });
      await page.close();
      out.push({ status: 'fulfilled', value: `${slot}: pass` });
    } catch (reason) {
      out.push({ status: 'rejected', reason });
    }
  }
  return out;
}

function lossJudging(shared: Browser, owned: Array<() => Promise<void>>) {
  return {
    slots: ['s1', 's2', 's3'],
    shared,
    own: async () => {
      const k = await killable();
      owned.push(k.close);
      return k.browser;
    },
    judge: judgeSlots,
    unjudged: (o: PromiseSettledResult<string>) => o.status === 'rejected',
    tookDownBoth: (slot: string) => `${slot}: fail (took down both)`,
  };
}

describe('a browser that dies under a page', () => {
  test("the run's shared browser is started again at the same address, and a process reconnects to it", async () => {
    const shared = await keepBrowser(options);
    try {
      const browser = reconnecting(() => chromium.connect(shared.wsEndpoint));
      const first = await browser();
      const died = new Promise((r) => first.once('disconnected', r));
      process.kill(browserProcess(shared.pid()!), 'SIGKILL');
      await died;
      const t0 = Date.now();
      const second = await browser();
      assert.notEqual(second, first, 'a new connection, not the dead one');
      assert.ok(second.isConnected());
      const page = await second.newPage();
      await page.setContent('<h1>alive</h1>');
      assert.equal(await page.textContent('h1'), 'alive');
      assert.equal(shared.restarts(), 1);
      assert.ok(Date.now() - t0 < 15_000, `reconnected in ${Date.now() - t0} ms`);
      assert.equal(await browser(), second, 'a live browser is kept, not reopened');
    } finally {
      await shared.close();
    }
  });

  test("slots left without a verdict by the shared browser's death are judged again in the case's own browser", async () => {
    const shared = await killable();
    const owned: Array<() => Promise<void>> = [];
    try {
      // The page takes the shared browser down once (another case's page might have): the own browser survives.
      killsLeft = 1;
      const r = await judgeDespiteBrowserLoss(lossJudging(shared.browser, owned));
      assert.equal(shared.browser.isConnected(), false, 'the site did kill the shared browser');
      assert.deepEqual(
        r.outcomes.map((o) => (o.status === 'fulfilled' ? o.value : 'rejected')),
        ['s1: pass', 's2: pass', 's3: pass'],
        'every slot has a verdict from a live browser',
      );
      assert.equal(r.rejudged, 3);
      assert.equal(r.ownDied, false);
      assert.equal(owned.length, 1, 'one browser of its own for the case');
    } finally {
      await Promise.all([shared.close(), ...owned.map((c) => c())]);
      victims.clear();
    }
  });

  test('a site that takes down its own browser as well fails the slots it left without a verdict', async () => {
    const shared = await killable();
    const owned: Array<() => Promise<void>> = [];
    try {
      killsLeft = 2;
      const before = kills;
      const r = await judgeDespiteBrowserLoss(lossJudging(shared.browser, owned));
      assert.equal(kills - before, 2, 'both browsers were killed');
      assert.equal(r.ownDied, true);
      assert.deepEqual(
        r.outcomes.map((o) => (o.status === 'fulfilled' ? o.value : 'rejected')),
        ['s1: fail (took down both)', 's2: fail (took down both)', 's3: fail (took down both)'],
      );
    } finally {
      await Promise.all([shared.close(), ...owned.map((c) => c())]);
      victims.clear();
    }
  });

  test('while the shared browser lives, no browser of its own is launched', async () => {
    const shared = await killable();
    try {
      killsLeft = 0;
      const r = await judgeDespiteBrowserLoss({
        ...lossJudging(shared.browser, []),
        own: () => Promise.reject(new Error('no own browser is needed')),
      });
      assert.equal(r.rejudged, 0);
      assert.ok(r.outcomes.every((o) => o.status === 'fulfilled'));
    } finally {
      await shared.close();
      victims.clear();
    }
  });

  test('work done once per case (crash rule, visual check): done again in an own browser, null when the site kills that one too', async () => {
    const once = async (b: Browser) => (await judgeSlots(['once'], b))[0]!;
    const settled = async (b: Browser) => {
      const o = await once(b);
      if (o.status === 'rejected') throw o.reason;
      return o.value;
    };
    for (const [kills, expected] of [[1, 'once: pass'], [2, null]] as const) {
      const shared = await killable();
      const owned: Array<() => Promise<void>> = [];
      try {
        killsLeft = kills;
        const got = await onceDespiteBrowserLoss(shared.browser, lossJudging(shared.browser, owned).own, settled);
        assert.equal(got, expected, `${kills} browser(s) killed`);
      } finally {
        await Promise.all([shared.close(), ...owned.map((c) => c())]);
        victims.clear();
      }
    }
    // A failure with the browser alive is the work's own, and is thrown as it was.
    const shared = await killable();
    try {
      await assert.rejects(onceDespiteBrowserLoss(shared.browser, () => Promise.reject(new Error('no own browser is needed')), async () => Promise.reject(new Error('the page said no'))), /the page said no/);
    } finally {
      await shared.close();
      victims.clear();
    }
  });

  test("the crash rule keeps no finding from a browser that died under the check (it is no crash of the site's)", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-browser-loss-'));
    const shared = await killable();
    try {
      killsLeft = 1;
      loads = 'script';
      await assert.rejects(getCrash(dir, shared.browser, url), BrowserLost, 'a page that "did not load" because the browser died');
      assert.equal(existsSync(path.join(dir, 'crash.json')), false, 'no crash.json was written');
    } finally {
      loads = 'fetch';
      await shared.close();
      victims.clear();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  test("an agent's verify step that meets a dead browser renders in the run's browser connected again", async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-browser-loss-site-'));
    await fs.writeFile(path.join(root, 'index.html'), '<!doctype html><title>Mine</title><h1>Mine</h1>');
    const dying = await killable();
    const spare = await killable();
    const live = new LiveSite(root);
    try {
      // Another case's page took the shared browser down an instant ago: the connection does not know it yet.
      process.kill(browserProcess([...victims][0]!), 'SIGKILL');
      const asked: Array<Browser | undefined> = [];
      const verifier = new VerifyRunner({
        browser: async (dead) => {
          asked.push(dead);
          return dead === dying.browser ? spare.browser : dying.browser;
        },
        live,
        dir: root,
        instruction: 'a page',
        failureLimit: 6,
        steps: [],
        files: async () => ['index.html'],
      });
      const step: TrajectoryStep = { index: 0, action: 'verify', args: {}, observation: '', latencyMs: 0 };
      await fs.mkdir(path.join(root, 'shots'));
      const o = await verifier.run({ type: 'verify', path: '/' }, 5, step);
      assert.equal(o.type, 'verified', `the agent sees its page, not the dead browser: ${JSON.stringify(o).slice(0, 300)}`);
      assert.equal(o.type === 'verified' && o.title, 'Mine');
      assert.deepEqual(asked, [undefined, dying.browser], 'the step named the browser that failed it and got another');
    } finally {
      await live.end();
      await Promise.all([dying.close(), spare.close()]);
      victims.clear();
      await fs.rm(root, { recursive: true, force: true });
    }
  });
});
