import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Browser } from '@playwright/test';
import { createLlmJudge } from '../judge/llm-judge.js';
import { createProbeJudge } from '../judge/probe-judge.js';
import { ModelClient } from '../llm/client.js';
import { reply, start, type FakeServer } from '../testkit/fake-server.js';
import { renderPage } from '../site/render.js';
import { PAGE_RESPONSE_MS } from '../site/unresponsive.js';
import { RENDERER_HEAP_MB } from '../config/settings.js';
import { launch, makeCase, slot } from './judge-support.js';

/**
 * Pages an agent may build that stop answering. Served by a server of the test's own, since a page that
 * never finishes loading needs a response that never ends. Each must be cut off in bounded time, during
 * a verify step and during judging, and judged as the site's failure (fail), never the harness's (errored).
 */
const PAGES: Record<string, string> = {
  '/loop': '<!doctype html><title>Loop</title><h1>Loop</h1><script>setTimeout(() => { for (;;) {} }, 50)</script>',
  '/alloc': '<!doctype html><title>Alloc</title><h1>Alloc</h1><script>setTimeout(() => { const keep = []; for (;;) keep.push(new Array(1e6).fill(Math.random())); }, 50)</script>',
  '/never': '<!doctype html><title>Never</title><h1>Never',
};

/** One server per page, each serving it at `/`: the judge opens a site at its root. */
const servers = new Map<string, { server: http.Server; url: string }>();
let browser: Browser;
/**
 * Chromium's browser process itself sometimes dies (a kernel-logged segfault) when a renderer runs out of heap
 * while the harness talks to it: seen under load in CI and in npm test, never alone. A test after it gets a new
 * browser, so one such death fails one test, not every test after it. What the harness does then is the
 * judge's own answer named in `browserDied` (errored; a case's judging then judges the slot again in a browser of
 * its own: test/browser-loss).
 */
async function liveBrowser(): Promise<Browser> {
  if (!browser.isConnected()) browser = await launch();
  return browser;
}
/**
 * The page took Chromium's browser process down with it before the judge could give a verdict: the judge
 * reports errored, never pass (fixtures/browser-loss.ts judges such a slot again, and fails it if the page
 * kills that browser too). A verdict given before the browser died is checked as usual.
 */
function browserDied(b: Browser, status: string, evidence: string): boolean {
  if (b.isConnected() || status !== 'errored') return false;
  assert.match(evidence, /browser|closed/i);
  console.log(`[hostile-sites] Chromium's browser process died under the page (errored here; judged again by a case's judging): ${evidence.slice(0, 200)}`);
  return true;
}
let fake: FakeServer;
before(async () => {
  for (const [name, body] of Object.entries(PAGES)) {
    const server = http.createServer((req, res) => {
      if (req.url !== '/') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html' });
      // /never sends half a document and then nothing: the load event never comes.
      if (name === '/never') res.write(body);
      else res.end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    servers.set(name, { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
  }
  [browser, fake] = await Promise.all([launch(), start()]);
});
after(async () => {
  for (const { server } of servers.values()) server.closeAllConnections();
  await Promise.all([...[...servers.values()].map(({ server }) => new Promise((r) => server.close(r))), browser?.close(), fake?.close()]);
});

/** Well within the time a worker may spend on one slot, and far below Playwright's default test timeout. */
const BOUND_MS = PAGE_RESPONSE_MS * 4 + 10_000;

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = Date.now();
  const value = await work();
  return { value, ms: Date.now() - t0 };
}

async function judgedOn(path: string, judge: 'llm' | 'probe') {
  const browser = await liveBrowser();
  const context = await browser.newContext();
  const page = await context.newPage();
  const s = slot(`s-${path.slice(1)}`, judge === 'probe' ? { probe: { steps: [{ expect: 'title', contains: 'Never' }] } } : {});
  const c = makeCase([s]);
  try {
    fake.reset();
    // The judge looks around first (by then a looping script has started), then says the page is fine.
    fake.script((_req, i) => (i === 0 ? reply.delay(300, reply.json({ thought: 'look lower', action: { kind: 'scroll', direction: 'down' } })) : reply.json({ thought: 'done', action: { kind: 'verdict', status: 'pass', evidence: 'looked fine' } })));
    const j =
      judge === 'llm'
        ? createLlmJudge({ client: new ModelClient({ role: 'judge', model: 'fake-judge', baseURL: fake.baseURL, apiKey: 'k' }, { retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 5000 } }) })
        : createProbeJudge();
    return { ...(await timed(() => j.judge({ url: servers.get(path)!.url, page, browser, case: c }, s))), browser };
  } finally {
    await context.close().catch(() => undefined);
  }
}

test('a page\'s JavaScript heap is capped, so /alloc crashes its renderer early, not at 4 GB beside other pages', async () => {
  const context = await (await liveBrowser()).newContext();
  try {
    const page = await context.newPage();
    // Chromium-only: the old space V8 was told plus its young generation (about 630 MB for 512; 3.5 GB uncapped).
    const limit = await page.evaluate(() => (performance as unknown as { memory: { jsHeapSizeLimit: number } }).memory.jsHeapSizeLimit);
    assert.ok(limit <= RENDERER_HEAP_MB * 2 * 2 ** 20, `heap limit ${Math.round(limit / 2 ** 20)} MB`);
  } finally {
    await context.close();
  }
});

describe('a page that stops answering', () => {
  for (const path of Object.keys(PAGES)) {
    test(`${path}: a verify step reports it to the agent in bounded time`, async () => {
      const b = await liveBrowser();
      const { value, ms } = await timed(() => renderPage(b, servers.get(path)!.url, '/').then(() => 'rendered', (e: Error) => e.message));
      assert.ok(ms < BOUND_MS, `${ms} ms`);
      // The agent is told the page could not be photographed either way; a dead browser says so in its own words.
      assert.match(value, b.isConnected() ? /took longer than|Timeout|crash/i : /took longer than|Timeout|crash|closed/i, `${path} cannot be photographed, and the agent is told why`);
    });

    test(`${path}: the LLM judge ${path === '/never' ? 'judges what loaded' : 'fails the slot with the reason'}, in bounded time, never errored`, async () => {
      const { value: v, ms, browser: b } = await judgedOn(path, 'llm');
      assert.ok(ms < BOUND_MS, `${ms} ms`);
      if (browserDied(b, v.status, v.evidence)) return;
      assert.notEqual(v.status, 'errored', v.evidence);
      if (path !== '/never') {
        assert.equal(v.status, 'fail', v.evidence);
        assert.match(v.evidence, /did not respond|crashed/);
      }
    });
  }

  test('/never: a probe fails the slot, not errored', async () => {
    const { value: v, ms, browser: b } = await judgedOn('/never', 'probe');
    assert.ok(ms < BOUND_MS, `${ms} ms`);
    if (browserDied(b, v.status, v.evidence)) return;
    assert.equal(v.status, 'fail', v.evidence);
  });
});
