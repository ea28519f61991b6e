import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FullResult, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { ANNOTATION } from '../protocol/annotations.js';
import CaseLinesReporter from '../reporters/case-lines.js';

/** Slot tests of one case as Playwright hands them to a reporter: only the fields the reporter reads. */
function caseTests(caseId: string, title: string, n: number): TestCase[] {
  const parent = { title } as Suite;
  const tests = Array.from({ length: n }, (_, i) => {
    const slot = { caseId, taskId: caseId.split('_')[0], persona: 'P-MIN', difficulty: 'easy', slotId: `s${i + 1}`, targetComponent: 'C', assertionType: 'POSITIVE', weight: 1, cTech: 1 };
    return { id: `${caseId}-${i}`, retries: 0, repeatEachIndex: 0, parent, annotations: [{ type: ANNOTATION.slot, description: JSON.stringify(slot) }] } as unknown as TestCase;
  });
  Object.assign(parent, { allTests: () => tests });
  return tests;
}

const result = (status: TestResult['status'], verdict?: 'pass' | 'fail' | 'errored' | 'unjudged'): TestResult =>
  ({ status, retry: 0, annotations: verdict ? [{ type: ANNOTATION.verdict, description: JSON.stringify({ status: verdict, judge: 'probe', evidence: 'e' }) }] : [] }) as unknown as TestResult;

test('one line per case when its last slot test ends, then one closing line; slot failures print nothing of their own', () => {
  const lines: string[] = [];
  const reporter = new CaseLinesReporter({ write: (s) => lines.push(s) });
  const a = caseTests('tip_P-MIN', 'tip_P-MIN Tip calculator [hard]', 3);
  const b = caseTests('poll_P-MIN', 'poll_P-MIN Lunch poll [middle]', 2);
  reporter.onBegin({} as never, { allTests: () => [...a, ...b] } as unknown as Suite);
  assert.equal(lines.length, 1, 'a header line');
  assert.match(lines[0]!, /2 case\(s\), 5 slot tests/);

  for (const t of [...a, ...b]) reporter.onTestBegin(t);
  reporter.onTestEnd(a[0]!, result('failed', 'fail'));
  reporter.onTestEnd(b[0]!, result('passed', 'pass'));
  reporter.onTestEnd(a[1]!, result('failed', 'errored'));
  assert.equal(lines.length, 1, 'no line until a case is whole');
  reporter.onTestEnd(a[2]!, result('skipped', 'unjudged'));
  assert.equal(lines.length, 2);
  assert.match(lines[1]!, /^ {2}! 1\/2 tip_P-MIN Tip calculator \[hard\] · 3 slots: 1 failed, 1 errored, 1 unjudged · \d+\.\d s\n$/);
  // A test that failed without any verdict (a crashed fixture) is the harness's error, not a fail.
  reporter.onTestEnd(b[1]!, result('failed'));
  assert.match(lines[2]!, /^ {2}! 2\/2 poll_P-MIN Lunch poll \[middle\] · 2 slots: 1 passed, 1 errored/);
  reporter.onEnd({ status: 'failed', startTime: new Date(), duration: 1000 } as FullResult);
  assert.match(lines[3]!, /^\n2 case\(s\) done · 5 slot tests: 1 passed, 1 failed, 2 errored, 1 unjudged · \d+ s · Playwright failed\n$/);
  assert.equal(lines.length, 4);
});

test('a passing case gets a tick; a case cut short is counted as not finished; errors outside tests are printed', () => {
  const lines: string[] = [];
  const reporter = new CaseLinesReporter({ write: (s) => lines.push(s) });
  const a = caseTests('ok_P-MIN', 'ok_P-MIN Fine [easy]', 2);
  const b = caseTests('cut_P-MIN', 'cut_P-MIN Cut [easy]', 2);
  reporter.onBegin({} as never, { allTests: () => [...a, ...b] } as unknown as Suite);
  for (const t of a) reporter.onTestEnd(t, result('passed', 'pass'));
  reporter.onTestEnd(b[0]!, result('failed', 'fail'));
  reporter.onError({ message: 'global setup failed: no browser' });
  reporter.onEnd({ status: 'interrupted', startTime: new Date(), duration: 1000 } as FullResult);
  const text = lines.join('');
  assert.match(text, / {2}✓ 1\/2 ok_P-MIN Fine \[easy\] · 2 slots: 2 passed/);
  assert.doesNotMatch(text, /cut_P-MIN Cut/, 'no line for an unfinished case');
  assert.match(text, /error: global setup failed: no browser/);
  assert.match(text, /1 case\(s\) done, 1 not finished · 3 slot tests: 2 passed, 1 failed · \d+ s · Playwright interrupted/);
});
