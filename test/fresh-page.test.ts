import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, BrowserContext } from '@playwright/test';
import { freshPage, type Preparation } from '../site/fresh-page.js';
import { launch } from './judge-support.js';

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
