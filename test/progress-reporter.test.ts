import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Progress, recapOf, type TestEvent } from './progress-reporter.js';

const event = (type: 'test:pass' | 'test:fail', name: string, nesting: number, error?: unknown): TestEvent => ({
  type,
  data: { name, nesting, file: '/x/test/a.test.ts', details: { duration_ms: 5, ...(error === undefined ? {} : { error }) } },
});

test('a failed leaf is counted once and kept for the recap; the suite that failed because of it is neither', () => {
  const p = new Progress();
  p.line(event('test:pass', 'fine', 1));
  p.line(event('test:fail', 'broken', 1, new Error('expected 1, got 2')));
  p.line(event('test:fail', 'suite', 0, new Error('1 subtest failed')));
  p.line(event('test:fail', 'top-level leaf', 0, new Error('boom')));
  assert.deepEqual(p.counts, { passed: 1, failed: 2, skipped: 0 });
  assert.equal(p.failures.length, 2);
  assert.match(p.failures[0]!, /broken[\s\S]*expected 1, got 2/);
  assert.match(p.failures[1]!, /top-level leaf[\s\S]*boom/);
  assert.ok(!p.failures.some((f) => f.includes('1 subtest failed')));
});

test('the recap keeps a failure\'s first lines and says how many it left out', () => {
  const long = `✗ a › b\n${Array.from({ length: 40 }, (_, i) => `    line ${i}`).join('\n')}\n`;
  const recap = recapOf(long, 5);
  assert.equal(recap.split('\n').length, 7);
  assert.match(recap, /^✗ a › b\n {4}line 0\n/);
  assert.match(recap, /… 36 more lines/);
  assert.equal(recapOf('✗ short\n'), '✗ short\n');
});
