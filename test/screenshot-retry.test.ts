import assert from 'node:assert/strict';
import { test } from 'node:test';
import { againIfTransient, SHOT_TRIES } from '../site/screenshot.js';

const refused = () => new Error('page.screenshot: Protocol error (Page.captureScreenshot): Unable to capture screenshot');

test('a capture Chromium refuses now and then is asked again; any other error, a closed page or a refusal every time is thrown', async () => {
  let calls = 0;
  const flaky = () => (++calls < SHOT_TRIES ? Promise.reject(refused()) : Promise.resolve('png'));
  assert.equal(await againIfTransient(flaky, () => false, 1), 'png');
  assert.equal(calls, SHOT_TRIES);

  calls = 0;
  await assert.rejects(againIfTransient(() => (calls++, Promise.reject(refused())), () => false, 1), /Unable to capture screenshot/);
  assert.equal(calls, SHOT_TRIES, 'bounded: a page that always refuses still ends in an error');

  calls = 0;
  await assert.rejects(againIfTransient(() => (calls++, Promise.reject(new Error('Target page, context or browser has been closed'))), () => false, 1), /closed/);
  assert.equal(calls, 1, 'not a transient refusal: thrown at once');

  calls = 0;
  await assert.rejects(againIfTransient(() => (calls++, Promise.reject(refused())), () => true, 1), /Unable/);
  assert.equal(calls, 1, 'the page is gone: no point asking again');
});
