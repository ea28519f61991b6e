import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, BrowserContext } from '@playwright/test';
import { freshPage, sitePage, type Preparation } from '../site/fresh-page.js';
import { aimAt } from '../sandbox/browser-network.js';
import { launch, tempSite } from './judge-support.js';

let browser: Browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** A preparation that records which contexts it was applied to. */
function marking(key: string): Preparation & { contexts: BrowserContext[] } {
  const contexts: BrowserContext[] = [];
  return { key, contexts, prepare: async (context) => contexts.push(context) };
}

test('fresh pages: a spare is prepared ahead only when asked, and never handed out prepared for something else', async () => {
  const a = marking('site a');
  const b = marking('site b');
  const plain = await freshPage(browser);
  // Asked for a preparation, with a plain spare waiting: the spare is prepared on the spot; the next is prepared ahead.
  const first = await freshPage(browser, { prepare: a, nextLikeThis: true });
  assert.deepEqual(a.contexts, [first.context]);
  const second = await freshPage(browser, { prepare: a, nextLikeThis: true });
  assert.equal(a.contexts[1], second.context, 'the second was prepared ahead, and once');
  assert.equal(a.contexts.filter((c) => c === second.context).length, 1);
  // A spare prepared for site a is not given to a caller of site b, nor to a caller that wants none.
  const other = await freshPage(browser, { prepare: b });
  assert.ok(!a.contexts.includes(other.context), 'a context prepared for another site');
  assert.deepEqual(b.contexts, [other.context]);
  await freshPage(browser, { prepare: a, nextLikeThis: true });
  const bare = await freshPage(browser);
  assert.ok(!a.contexts.includes(bare.context), 'a prepared context handed to a caller that asked for none');
  for (const f of [plain, first, second, other, bare]) assert.equal(f.page.url(), 'about:blank');
  await Promise.all([plain, first, second, other, bare].map((f) => f.context.close()));
});

test('a look at an agent site gets a spare routed ahead, aimed on use: it reaches that site and no other', async () => {
  const [a, b] = await Promise.all([tempSite({ 'index.html': '<title>A</title><h1>A</h1>' }), tempSite({ 'index.html': '<title>B</title><h1>B</h1>' })]);
  try {
    const origin = (u: string) => new URL(u).origin;
    const first = await sitePage(browser, origin(a.url));
    // The spare made meanwhile is routed already; the next look, at another site, takes it and is aimed there.
    const second = await sitePage(browser, origin(b.url));
    const t0 = performance.now();
    await second.page.goto(b.url);
    assert.equal(await second.page.title(), 'B');
    const other = await second.page.goto(a.url).then(() => 'loaded', (e: Error) => e.message);
    assert.match(other, /ERR_BLOCKED_BY_CLIENT/, 'a site the context was not aimed at is refused');
    await first.page.goto(a.url);
    assert.equal(await first.page.title(), 'A');
    console.log(`aimed spare: page loaded in ${Math.round(performance.now() - t0)} ms`);
    await Promise.all([first, second].map((f) => f.context.close()));
    // Aiming twice, or a context made without the rule, is a harness bug and says so.
    const bare = await freshPage(browser);
    assert.throws(() => aimAt(bare.context, origin(a.url)), /no rule waiting/);
    await bare.context.close();
  } finally {
    await Promise.all([a.dispose(), b.dispose()]);
  }
});

test("the spare is made once the page handed out has loaded, not while it loads (a renderer's start doubled that load); asked for sooner, it is made at once", async () => {
  const site = await tempSite({ 'index.html': '<title>A</title><h1>A</h1>' });
  try {
    const a = marking('site a');
    const first = await freshPage(browser, { prepare: a, nextLikeThis: true });
    assert.deepEqual(a.contexts, [first.context]);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(a.contexts.length, 1, 'no spare is made before the page handed out loads');
    let loadedAt = 0;
    first.page.once('load', () => (loadedAt = performance.now()));
    await first.page.goto(site.url);
    const deadline = Date.now() + 5000;
    while (a.contexts.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    assert.equal(a.contexts.length, 2, 'the spare is made after the load');
    assert.ok(loadedAt > 0);
    // Asked for before the page handed out has loaded: the waiting spare is started at once and handed out.
    const second = await freshPage(browser, { prepare: a, nextLikeThis: true });
    assert.equal(second.context, a.contexts[1]);
    const t0 = performance.now();
    const third = await freshPage(browser, { prepare: a, nextLikeThis: true });
    assert.equal(third.context, a.contexts[2], 'the spare waiting on the second page was made for the third caller');
    assert.ok(performance.now() - t0 < 2500, `handed out in ${Math.round(performance.now() - t0)} ms, not after the load wait`);
    await Promise.all([first, second, third].map((f) => f.context.close()));
  } finally {
    await site.dispose();
  }
});
