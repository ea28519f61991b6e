import assert from 'node:assert/strict';
import { test } from 'node:test';
import { aggregate, groupBy, mean } from '../reporters/aggregate.js';
import { caseResults, type SlotRecord } from '../reporters/metrics.js';
import { buildReport } from '../reporters/report.js';

let n = 0;
function rec(caseId: string, status: SlotRecord['status'], weight: number, assertionType: 'POSITIVE' | 'NEGATIVE' = 'POSITIVE', persona: SlotRecord['persona'] = 'P-MIN'): SlotRecord {
  return {
    caseId,
    taskId: caseId.split('_')[0]!,
    persona,
    difficulty: 'easy',
    slotId: `s${++n}`,
    targetComponent: 'C',
    assertionType,
    weight,
    cTech: 1,
    status,
    evidence: '',
  };
}

test('TCR is passed POSITIVE weight over judged POSITIVE weight; NEGATIVE slots do not count', () => {
  const [c] = caseResults([rec('a_P-MIN', 'pass', 3), rec('a_P-MIN', 'fail', 1), rec('a_P-MIN', 'pass', 2, 'NEGATIVE')]);
  assert.equal(c!.tcr, 0.75);
  assert.equal(c!.hallucinated, false);
  assert.equal(c!.sr, false);
});

test('unjudged and errored slots are left out of TCR, HR and SR and counted apart', () => {
  const [c] = caseResults([rec('a_P-MIN', 'pass', 1), rec('a_P-MIN', 'unjudged', 5), rec('a_P-MIN', 'errored', 5), rec('a_P-MIN', 'unjudged', 1, 'NEGATIVE')]);
  assert.equal(c!.tcr, 1);
  assert.equal(c!.hallucinated, false, 'a judged case whose NEGATIVE slot was not judged did not hallucinate');
  assert.equal(c!.sr, true);
  const a = aggregate([c!]);
  assert.deepEqual([a.judgedSlots, a.unjudgedSlots, a.erroredSlots], [1, 2, 1]);
  assert.equal(a.hr, 0);
  const [nothing] = caseResults([rec('b_P-MIN', 'errored', 1), rec('b_P-MIN', 'unjudged', 1, 'NEGATIVE')]);
  assert.deepEqual([nothing!.tcr, nothing!.hallucinated, nothing!.sr], [null, null, null], 'a case with nothing judged has no TCR, HR or SR');
});

test('HR is the share of cases with a failed NEGATIVE slot; aggregates are means over cases', () => {
  const cases = caseResults([
    rec('a_P-MIN', 'pass', 1), rec('a_P-MIN', 'fail', 1, 'NEGATIVE'),
    rec('b_P-MIN', 'fail', 1), rec('b_P-MIN', 'pass', 1, 'NEGATIVE'),
    rec('c_P-CON', 'pass', 1, 'POSITIVE', 'P-CON'), rec('c_P-CON', 'fail', 3, 'POSITIVE', 'P-CON'), rec('c_P-CON', 'pass', 1, 'NEGATIVE', 'P-CON'),
  ]);
  const a = aggregate(cases);
  assert.equal(a.tcr, (1 + 0 + 0.25) / 3);
  assert.equal(a.hr, 1 / 3);
  assert.equal(a.sr, 0);
  const by = groupBy(cases, (c) => c.persona);
  assert.deepEqual(Object.keys(by), ['P-MIN', 'P-CON'], "the paper's persona order");
  assert.equal(by['P-MIN']!.tcr, 0.5);
  assert.equal(by['P-MIN']!.hr, 0.5);
  assert.equal(by['P-CON']!.tcr, 0.25);
});

test('a verdict that saw a page address the judge flags its case in the report', () => {
  const flagged = { ...rec('x_P-MIN', 'pass', 1), injection: true };
  const r = buildReport([flagged, rec('x_P-MIN', 'pass', 1), rec('y_P-MIN', 'pass', 1)], { startedAt: 't', durationMs: 0, dataset: 'd', agents: [], playwrightStatus: 'passed' });
  assert.deepEqual(r.injectionFlaggedCases, ['x_P-MIN']);
  assert.equal(r.cases.find((c) => c.id === 'x_P-MIN')!.injectionFlagged, true);
  assert.equal(r.cases.find((c) => c.id === 'y_P-MIN')!.injectionFlagged, false);
});

test('VBR is the share of checked cases whose final page has a visual bug', () => {
  const bug = { bug: true, findings: ['blank-page: nothing rendered'] };
  const ok = { bug: false, findings: [] };
  const cases = caseResults([{ ...rec('v_P-MIN', 'pass', 1), visual: bug }, { ...rec('w_P-MIN', 'pass', 1), visual: ok }, { ...rec('z_P-MIN', 'pass', 1), visual: ok }, rec('u_P-MIN', 'pass', 1)]);
  assert.deepEqual(cases.map((c) => c.visualBug), [true, false, false, null]);
  assert.equal(aggregate(cases).vbr, 1 / 3);
});

test('mean ignores undefined values and is null on none', () => {
  assert.equal(mean([null, null]), null);
  assert.equal(mean([1, null, 0]), 0.5);
});

test('the report does not depend on the order records arrive in (shards merge in any order)', () => {
  const records = [rec('a_P-MIN', 'pass', 1), rec('b_P-MIN', 'fail', 2), rec('a_P-MIN', 'fail', 1, 'NEGATIVE'), rec('b_P-RAM', 'pass', 1, 'POSITIVE', 'P-RAM')];
  const meta = { startedAt: 't', durationMs: 0, dataset: 'd', agents: [], playwrightStatus: 'passed' };
  const x = buildReport(records, meta);
  const y = buildReport([...records].reverse(), meta);
  assert.deepEqual(x, y);
  assert.equal(x.cases.length, 3);
  assert.equal(x.overall.hr, 1 / 3);
});
