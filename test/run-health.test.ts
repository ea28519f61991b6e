import assert from 'node:assert/strict';
import { test } from 'node:test';
import { caseStatus, renderSummary } from '../reporters/html-summary.js';
import { partialReason, runHealth } from '../reporters/run-health.js';
import { reportOf } from './report-support.js';

test('a run whose every case errored says so first, with the first error, instead of a table of dashes', () => {
  const r = reportOf([
    { id: 'a_P-MIN', agent: 'x', positives: ['errored', 'errored'] },
    { id: 'b_P-MIN', agent: 'x', positives: ['errored'] },
  ]);
  r.meta.firstError = 'browserType.launch: Executable does not exist at /usr/bin/chromium';
  const lines = runHealth(r);
  assert.match(lines[0]!, /^Every episode errored \(2 of 2 cases\): nothing was judged.*First error: browserType\.launch: Executable does not exist/);
  const html = renderSummary(r);
  assert.ok(html.indexOf('Every episode errored') < html.indexOf('class="meta"'), 'before anything else on the page');
  assert.deepEqual(r.cases.map(caseStatus), ['errored', 'errored']);
});

test('partial runs: filtered or interrupted, and a whole run is not partial', () => {
  assert.equal(partialReason(24, 24, false), undefined);
  assert.equal(partialReason(6, 24, false), '6 of 24 cases of the dataset (filtered by --project, --grep or --shard)');
  assert.equal(partialReason(3, 24, true), 'interrupted after 3 of 24 cases');
  assert.equal(partialReason(3, null, true), 'interrupted after 3 cases');
  const r = reportOf([{ id: 'a_P-MIN', agent: 'x', positives: ['pass'] }, { id: 'b_P-MIN', agent: 'x', positives: ['fail'] }]);
  assert.deepEqual(runHealth(r), []);
  assert.deepEqual(r.cases.map(caseStatus), ['passed', 'failed']);
  r.meta.partial = { casesRun: 2, casesInDataset: 8, interrupted: false, reason: partialReason(2, 8, false)! };
  assert.deepEqual(runHealth(r), ['Partial run: 2 of 8 cases of the dataset (filtered by --project, --grep or --shard).']);
});
