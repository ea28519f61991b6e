import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { Page } from '@playwright/test';
import { pageScreenshot, SHOT_TRIES, viewportPng } from '../site/screenshot.js';
import { ROOT, sourceFiles } from './import-graph.js';

const refused = () => new Error('page.screenshot: Protocol error (Page.captureScreenshot): Unable to capture screenshot');

/** A page whose screenshot is refused `times` times (or fails otherwise), then given; at device scale 2 viewportPng takes Playwright's screenshot. */
function pageThatRefuses(times: number, opts: { error?: () => Error; closed?: boolean } = {}): Page & { calls: number } {
  const page = {
    calls: 0,
    screenshot() {
      page.calls += 1;
      return page.calls <= times ? Promise.reject((opts.error ?? refused)()) : Promise.resolve(Buffer.from('png'));
    },
    isClosed: () => opts.closed ?? false,
    evaluate: () => Promise.resolve(2),
  };
  return page as unknown as Page & { calls: number };
}

test('a capture Chromium refuses now and then is asked again, by both ways the harness takes pictures', async () => {
  for (const shoot of [(p: Page) => pageScreenshot(p), (p: Page) => viewportPng(p)]) {
    const page = pageThatRefuses(SHOT_TRIES - 1);
    assert.equal(String(await shoot(page)), 'png');
    assert.equal(page.calls, SHOT_TRIES);
  }
});

test('a refusal every time, another error, or a closed page is thrown, and soon', async () => {
  const always = pageThatRefuses(Infinity);
  await assert.rejects(pageScreenshot(always), /Unable to capture screenshot/);
  assert.equal(always.calls, SHOT_TRIES, 'bounded: a page that always refuses still ends in an error');
  const other = pageThatRefuses(1, { error: () => new Error('Target page, context or browser has been closed') });
  await assert.rejects(pageScreenshot(other), /closed/);
  assert.equal(other.calls, 1, 'not a transient refusal: thrown at once');
  const gone = pageThatRefuses(1, { closed: true });
  await assert.rejects(pageScreenshot(gone), /Unable/);
  assert.equal(gone.calls, 1, 'the page is gone: no point asking again');
});

test('every picture the harness takes goes through site/screenshot.ts, where the refusal is asked again', () => {
  const direct = sourceFiles()
    .filter((f) => !f.startsWith('test/') && f !== 'site/screenshot.ts' && !f.startsWith('tasks/'))
    .filter((f) => /\.screenshot\(/.test(readFileSync(path.join(ROOT, f), 'utf8')));
  assert.deepEqual(direct, [], 'call pageScreenshot or viewportPng instead of page.screenshot');
});
