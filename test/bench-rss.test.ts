import assert from 'node:assert/strict';
import { test } from 'node:test';
import { processKind } from '../bench/rss.js';

// Command lines as /proc gives them (NUL-separated), copied from a bench run's processes.
const cmd = (...args: string[]) => args.join('\0') + '\0';
const env = 'PATH=/usr/bin\0BENCH_RUN_MARKER=m1\0';

test('bench RSS: the runner is not a worker, a worker and a browser process are', () => {
  assert.equal(processKind(env, cmd('node', '/w/node_modules/.bin/playwright', 'test', '--workers=1', '--reporter=json'), 'm1'), 'other');
  assert.equal(processKind(env, cmd('/usr/bin/node', '/w/node_modules/playwright/lib/worker/workerProcessEntry.js'), 'm1'), 'worker');
  assert.equal(processKind(env, cmd('/usr/lib/chromium/chromium-headless-shell', '--type=gpu-process'), 'm1'), 'browser');
  // Another run's processes, or none of a run's, are not counted.
  assert.equal(processKind(env, cmd('/usr/bin/node', '/w/node_modules/playwright/lib/worker/workerProcessEntry.js'), 'm2'), 'other');
  assert.equal(processKind(null, cmd('/usr/lib/chromium/chromium'), 'm1'), 'other');
});
