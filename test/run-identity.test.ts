import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runAnnotation } from '../protocol/build.js';
import { MixedRunsError, reportedRun } from '../reporters/run-identity.js';

const judge: { mode: string; stepCap: number | null; model: string | null } = { mode: 'case', stepCap: null, model: 'judge-m' };
const recorded = (profile: string, dataset = 'builtin', j = judge) => runAnnotation({ profile, dataset, judge: j }).description;
const env = { profile: 'iwb', dataset: 'from-env' } as const;

test("the report's run is what its tests recorded, not the reporting process's settings", () => {
  assert.deepEqual(reportedRun([recorded('paper'), recorded('paper')], env), { profile: 'paper', dataset: 'builtin' });
  assert.deepEqual(reportedRun([undefined, undefined], env), env, 'tests of an older blob recorded nothing: the settings stand in');
});

test('tests that disagree on the profile, the dataset or the judge make no report, and the error names both sides', () => {
  assert.throws(() => reportedRun([recorded('paper'), recorded('iwb'), recorded('paper')], env), (e: Error) => e instanceof MixedRunsError && /different profiles: paper \(2 test results\) and iwb \(1 test result\)/.test(e.message));
  assert.throws(() => reportedRun([recorded('iwb', 'a.jsonl'), recorded('iwb', 'b.jsonl')], env), /different datasets: a\.jsonl .* and b\.jsonl/);
  assert.throws(() => reportedRun([recorded('iwb'), recorded('iwb', 'builtin', { mode: 'slot', stepCap: 4, model: null })], env), /different judges: case session, judge-m .* and slot session, probes only, step cap 4/);
  assert.throws(() => reportedRun([recorded('papers')], env), /profile papers, which this build does not know/);
  // An older blob's tests (no record) merged with a recorded run's: not scored under the recorded run's rules.
  assert.throws(() => reportedRun([recorded('paper'), undefined, recorded('paper')], env), (e: Error) => e instanceof MixedRunsError && /1 of 3 test results recorded no run/.test(e.message));
});
