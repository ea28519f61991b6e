import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from '@playwright/test';
import { checkPage } from '../judge/crash-check.js';
import { checkVisual } from '../judge/visual-checks.js';
import { renderPage } from '../site/render.js';
import { launch, tempSite, type TempSite } from './judge-support.js';

// A console error, a script from a host the harness refuses, then an uncaught exception of two lines.
const NOISY = `<!doctype html><html><head><title>Noisy</title></head><body><h1>Noisy</h1>
<script>console.error('first: the list is empty');</script>
<script src="https://cdn.example.com/lib.js"></script>
<script>throw new TypeError('second: cannot read total\\nat line two');</script>
</body></html>`;

let browser: Browser;
let site: TempSite;
before(async () => {
  [browser, site] = await Promise.all([launch(), tempSite({ 'index.html': NOISY })]);
});
after(async () => {
  await Promise.all([browser?.close(), site?.dispose()]);
});

test('page errors: the verify render, the crash check and the visual checks see the same errors, each in its own words', async () => {
  // The agent is told everything as the browser put it, the refused outside script included.
  const render = await renderPage(browser, site.url, '/');
  assert.equal(render.consoleErrors[0], 'first: the list is empty');
  assert.ok(render.consoleErrors.some((e) => /ERR_BLOCKED_BY_CLIENT|Failed to load resource/.test(e)), render.consoleErrors.join(' | '));
  assert.equal(render.consoleErrors.at(-1), 'second: cannot read total\nat line two');

  // The judges quote the site's own errors only, an exception on one line and named.
  const page = await browser.newPage();
  try {
    const crash = await checkPage(page, site.url);
    assert.equal(crash.crashed, true);
    assert.equal(crash.reason, 'first: the list is empty');
    assert.deepEqual(crash.errors, ['first: the list is empty', 'uncaught TypeError: second: cannot read total']);
    const visual = await checkVisual(page, site.url);
    assert.deepEqual(
      visual.findings.filter((f) => f.check === 'console-error').map((f) => f.detail),
      ['first: the list is empty', 'uncaught TypeError: second: cannot read total'],
    );
    assert.ok(visual.blockedRequests >= 1);
  } finally {
    await page.close();
  }
});
