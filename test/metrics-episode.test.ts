import assert from 'node:assert/strict';
import { test } from 'node:test';
import { aggregate } from '../reporters/aggregate.js';
import { caseResults, clarificationHitRate, type SlotRecord } from '../reporters/metrics.js';
import type { EpisodeAnnotation } from '../protocol/annotations.js';
import { buildReport } from '../reporters/report.js';
import { ReportSchema } from '../reporters/report-schema.js';
import { bootstrapMeans, kendallTauB, passHatK } from '../stats/intervals.js';
import { episodeAnnotation } from './report-support.js';

const META = { startedAt: 't', durationMs: 0, dataset: 'd', agents: [], playwrightStatus: 'passed' };

/** Two questions (hitting s1 and s3), s1 and s2 degraded, one verify per two implements. */
function episode(over: Partial<EpisodeAnnotation> = {}): EpisodeAnnotation {
  return episodeAnnotation({
    steps: 6,
    counts: { clarify: 2, implement: 2, verify: 1, submit: 1, invalid: 0 },
    linesOfCode: 120,
    questions: [{ retrieved: ['s1'] }, { retrieved: ['s3'] }],
    degraded: ['s1', 's2'],
    ...over,
  });
}

let n = 0;
function rec(caseId: string, status: SlotRecord['status'], over: Partial<SlotRecord> = {}): SlotRecord {
  return {
    caseId, taskId: caseId.split('_')[0]!, persona: 'P-MIN', difficulty: 'easy', slotId: `s${++n}`, targetComponent: 'C',
    assertionType: 'POSITIVE', weight: 1, cTech: 1, status, evidence: '', ...over,
  };
}

test('raw TCR counts NEGATIVE slots too; uniform and c_tech-only weightings re-weigh POSITIVE slots', () => {
  const [c] = caseResults([
    rec('a_P-MIN', 'pass', { weight: 3, cTech: 3 }),
    rec('a_P-MIN', 'fail', { weight: 1, cTech: 1 }),
    rec('a_P-MIN', 'fail', { weight: 2, cTech: 2 }),
    rec('a_P-MIN', 'pass', { weight: 4, cTech: 1, assertionType: 'NEGATIVE' }),
  ]);
  assert.equal(c!.tcr, 3 / 6);
  assert.equal(c!.tcrRaw, 7 / 10);
  assert.equal(c!.tcrUniform, 1 / 3);
  assert.equal(c!.tcrCTech, 3 / 6);
});

test('CHR: the share of slots some question retrieved, over all slots or over the degraded ones; undefined when nothing was asked', () => {
  const questions = [{ retrieved: ['s1'] }, { retrieved: ['s3', 's1'] }, { retrieved: [] }];
  assert.equal(clarificationHitRate(questions, ['s1', 's2', 's3', 's4']), 2 / 4);
  assert.equal(clarificationHitRate(questions, ['s1', 's2']), 1 / 2);
  assert.equal(clarificationHitRate([], ['s1']), null, 'no question, no CHR');
});

test('episode metrics: CHR, VCI, PCR, blind execution, submit rate, LOC and steps, per case and as means', () => {
  const blind = episode({ agent: 'a1', counts: { clarify: 0, implement: 1, verify: 0, submit: 0, invalid: 0 }, questions: [], questionBeforeCode: false, status: 'step-cap', steps: 15, linesOfCode: 40 });
  const ids = ['s1', 's2', 's3', 's4', 's5'];
  const cases = caseResults([...ids.map((slotId) => rec('a_P-MIN', 'pass', { slotId, episode: episode() })), rec('b_P-MIN', 'fail', { episode: blind })]);
  const [a, b] = cases;
  assert.deepEqual([a!.chr, a!.chrDegraded, a!.vci, a!.questionBeforeCode, a!.blind, a!.submitted], [2 / 5, 1 / 2, 0.5, true, false, true]);
  assert.deepEqual([b!.chr, b!.chrDegraded, b!.vci, b!.questionBeforeCode, b!.blind, b!.submitted], [null, null, 0, false, true, false]);
  const agg = aggregate(cases);
  assert.equal(agg.chr, 2 / 5, 'CHR is averaged over cases that asked');
  assert.equal(agg.n.chr, 1);
  assert.equal(agg.vci, 0.25);
  assert.equal(agg.pcr, 0.5);
  assert.equal(agg.blindRate, 0.5);
  assert.equal(agg.blindCases, 1);
  assert.equal(agg.submitRate, 0.5);
  assert.equal(agg.linesOfCode, 80);
  assert.equal(agg.steps, 10.5);
});

test('IAS and the LLM-judged CHR come from the intent judgement; an errored judgement gives neither', () => {
  const intent = { ias: 4, hitSlots: ['x1', 'x3', 'x4'], model: 'j', tokens: { prompt: 10, completion: 2 } };
  const [ok, bad] = caseResults([
    ...['x1', 'x2', 'x3', 'x4'].map((slotId) => rec('a_P-MIN', 'pass', { slotId, episode: episode({ intent }) })),
    rec('b_P-MIN', 'pass', { episode: episode({ intent: { ...intent, ias: null, hitSlots: [], error: 'schema error' } }) }),
  ]);
  assert.deepEqual([ok!.ias, ok!.chrLlm], [4, 0.75]);
  assert.deepEqual([bad!.ias, bad!.chrLlm], [null, null]);
});

test('tokens and cost per role: episode, intent judgement and verdicts are summed and priced; an unpriced model makes the cost unknown', () => {
  const usage = [{ role: 'agent' as const, model: 'm-agent', prompt: 1_000_000, completion: 500_000 }, { role: 'user' as const, model: 'm-user', prompt: 2000, completion: 0 }];
  const ep = episode({ usage, intent: { ias: 3, hitSlots: [], model: 'm-judge', tokens: { prompt: 100, completion: 0 } } });
  const cases = caseResults([
    rec('a_P-MIN', 'pass', { episode: ep, judgeUsage: { role: 'judge', model: 'm-judge', prompt: 900, completion: 0 } }),
    rec('a_P-MIN', 'pass', { episode: ep, judgeUsage: { role: 'judge', model: 'm-judge', prompt: 1000, completion: 1000 } }),
  ]);
  assert.deepEqual(cases[0]!.usage.find((u) => u.role === 'judge'), { role: 'judge', model: 'm-judge', prompt: 2000, completion: 1000 });
  const prices = { 'm-agent': { promptPerMTok: 2, completionPerMTok: 10 }, 'm-judge': { promptPerMTok: 1, completionPerMTok: 1 } };
  const agg = aggregate(cases, { prices });
  assert.equal(agg.usage.agent!.costUsd, 2 + 5);
  assert.equal(agg.usage.judge!.costUsd, 0.003);
  assert.equal(agg.usage.user!.costUsd, null, 'no price for m-user');
  assert.equal(agg.costUsd, null);
  assert.equal(aggregate(cases, { prices: { ...prices, 'm-user': { promptPerMTok: 0, completionPerMTok: 0 } } }).costUsd, 7.003);
});

test('bootstrap intervals contain the point estimate, are reproducible, and narrow as cases grow', () => {
  const make = (k: number) => caseResults(Array.from({ length: k }, (_, i) => rec(`t${i}_P-MIN`, i % 3 === 0 ? 'fail' : 'pass')));
  const small = aggregate(make(12));
  const large = aggregate(make(300));
  for (const a of [small, large]) {
    const [lo, hi] = a.ci.tcr!;
    assert.ok(lo <= a.tcr! && a.tcr! <= hi, `${lo} <= ${a.tcr} <= ${hi}`);
  }
  assert.ok(large.ci.tcr![1] - large.ci.tcr![0] < (small.ci.tcr![1] - small.ci.tcr![0]) / 2, 'wider with 12 cases than with 300');
  assert.deepEqual(aggregate(make(12)).ci, small.ci, 'seeded: the same cases give the same intervals');
  assert.deepEqual(bootstrapMeans([[[1], [1]]], 2, { resamples: 50, seed: 1, level: 0.95 }), [[1, 1]]);
  assert.deepEqual(bootstrapMeans([[[null], [null]]], 2, { resamples: 50, seed: 1, level: 0.95 }), [null]);
});

test('pass^k (tau-bench): C(c,k)/C(n,k) averaged over tasks, from --repeat-each trials', () => {
  assert.equal(passHatK([{ n: 4, successes: 2 }, { n: 4, successes: 4 }], 1), (0.5 + 1) / 2);
  assert.equal(passHatK([{ n: 4, successes: 2 }, { n: 4, successes: 4 }], 2), (1 / 6 + 1) / 2);
  assert.equal(passHatK([{ n: 4, successes: 3 }], 4), 0);
  assert.equal(passHatK([{ n: 1, successes: 1 }], 2), null);
  // Three trials of one case: pass, pass, fail → pass^1 = 2/3, pass^2 = 1/3, pass^3 = 0.
  const records = [0, 1, 2].map((trial) => rec('x_P-MIN', trial === 2 ? 'fail' : 'pass', { trial, episode: episode() }));
  const r = buildReport(records, META);
  assert.equal(r.cases.length, 3, 'one case result per trial');
  assert.equal(r.overall.n.tcr, 3);
  assert.deepEqual(r.passK.a1, { 1: 2 / 3, 2: 1 / 3, 3: 0 });
});

test('Kendall tau-b: identical rankings 1, reversed -1, ties handled', () => {
  assert.equal(kendallTauB([1, 2, 3], [10, 20, 30]), 1);
  assert.equal(kendallTauB([1, 2, 3], [3, 2, 1]), -1);
  assert.ok(Math.abs(kendallTauB([1, 2, 2], [1, 2, 3])! - 2 / Math.sqrt(6)) < 1e-12);
  assert.equal(kendallTauB([1], [1]), null);
});

test('weight sensitivity: TCR per agent under three weightings and the rank agreement between them', () => {
  // a1 passes a heavy slot, a2 passes two light ones: paper weights and uniform weights rank them apart.
  const records = [
    rec('t_P-MIN', 'pass', { weight: 3, cTech: 3, episode: episode({ agent: 'a1' }) }),
    rec('t_P-MIN', 'fail', { weight: 1, cTech: 1, episode: episode({ agent: 'a1' }) }),
    rec('t_P-MIN', 'fail', { weight: 1, cTech: 1, episode: episode({ agent: 'a1' }) }),
    rec('u_P-MIN', 'fail', { weight: 3, cTech: 3, episode: episode({ agent: 'a2' }) }),
    rec('u_P-MIN', 'pass', { weight: 1, cTech: 1, episode: episode({ agent: 'a2' }) }),
    rec('u_P-MIN', 'pass', { weight: 1, cTech: 1, episode: episode({ agent: 'a2' }) }),
  ];
  const w = buildReport(records, META).weightSensitivity;
  assert.deepEqual(w.tcr.a1, { paper: 0.6, uniform: 1 / 3, cTech: 0.6 });
  assert.deepEqual(w.tcr.a2, { paper: 0.4, uniform: 2 / 3, cTech: 0.4 });
  assert.equal(w.kendallTau.uniform, -1);
  assert.equal(w.kendallTau.cTech, 1);
});

test('buildReport output satisfies the report.json schema', () => {
  const r = buildReport([rec('a_P-MIN', 'pass', { episode: episode() }), rec('b_P-MIN', 'unjudged')], META);
  assert.deepEqual(ReportSchema.parse(JSON.parse(JSON.stringify(r))), r);
  assert.equal(ReportSchema.safeParse({ ...r, overall: { ...r.overall, tcr: 'high' } }).success, false);
});

test('two agents on the same case stay two case results (blobs of several runs merged into one report)', () => {
  const r = buildReport([
    rec('t_P-MIN', 'pass', { slotId: 's1', episode: episode({ agent: 'b' }) }),
    rec('t_P-MIN', 'fail', { slotId: 's1', episode: episode({ agent: 'a' }) }),
  ], META);
  assert.deepEqual(r.cases.map((c) => [c.agent, c.tcr]), [['a', 0], ['b', 1]]);
  assert.deepEqual(Object.keys(r.byAgent), ['a', 'b']);
});
