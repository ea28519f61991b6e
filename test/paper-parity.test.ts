import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import type { ProfileName } from '../config/profiles.js';
import { buildReport } from '../reporters/report.js';
import { paperFigures, readPaperLog, readPaperLogs, type PaperFigures } from './paper-analyze.js';
import { drawLog, rng } from './paper-gen.js';
import { paperLog, recordsOf, reply, type LogSpec } from './paper-logs.js';

/**
 * Parity with the paper's scoring: logs in the paper's format are written as its harness writes them,
 * scored by the paper's formulas (test/paper-analyze.ts, restated from its result_analyze.py) and,
 * converted into this project's slot records as a run would produce them, by this project's metric code
 * under the paper profile. Every figure the script's tables print must agree to 1e-9: on hand-made logs
 * (one for each way the two once disagreed) and on thousands of seeded random ones.
 */

const { ask, code, verify, finish, prose } = reply;
const P = (weight: number, passed: boolean, unmentioned = false) => ({ type: 'POSITIVE' as const, weight, passed, ...(unmentioned ? { unmentioned } : {}) });
const N = (weight: number, passed: boolean) => ({ type: 'NEGATIVE' as const, weight, passed });

const LOGS: LogSpec[] = [
  // Asks first, builds, looks, submits; everything passes.
  { taskId: '1_P-MIN', replies: [ask('What colour?'), code(), verify(), finish()], stopReason: 'submitted', slots: [P(2, true), P(1, true), N(1, true)] },
  // Four code turns, one look; a POSITIVE slot and the NEGATIVE one fail (hallucinated).
  { taskId: '2_P-RAM', replies: [code(), code('app.js', 'let a = 1;'), code(), code(), verify(), finish()], stopReason: 'submitted', slots: [P(3, true), P(1, false), N(1, false)] },
  // Never submits; a format error; one slot the judge never mentioned (failed under the paper's rules).
  { taskId: '3_P-INT', replies: [code(), verify(), verify(), prose(), code(), verify()], stopReason: 'max_turns_reached', slots: [P(2, true), P(2, false, true), P(1, false), N(1, true)] },
  // Two questions before code, then a site that will not start: every slot fails, the NEGATIVE one too.
  { taskId: '4_P-CON', replies: [ask('Dark or light?'), ask('Are you sure?'), code(), finish()], stopReason: 'submitted', outcome: 'crashed', slots: [P(2, true), P(1, true), N(1, true)] },
  // A question after the first code (no PCR credit); no NEGATIVE slot (HR 0).
  { taskId: '5_P-MIN', replies: [code(), ask('Which font?'), verify(), finish()], stopReason: 'submitted', slots: [P(1, true), P(3, false)] },
  // Looks four times after one code turn and stops on a verification deadlock.
  { taskId: '6_P-RAM', replies: [code(), verify(), verify(), verify(), verify()], stopReason: 'verification_deadlock', slots: [P(2, true), N(1, true)] },
  // Blind: code, submit; the NEGATIVE slot fails.
  { taskId: '7_P-INT', replies: [code(), finish()], stopReason: 'submitted', slots: [P(1, false), P(1, true), N(2, false)] },
];

/** Writes the logs as the paper's harness lays them out, `<dir>/<task>_<persona>/interaction_history.json`, and scores them as its script does. */
async function paperScoredIn(dir: string, specs: readonly LogSpec[]): Promise<PaperFigures> {
  for (const spec of specs) {
    await fs.mkdir(path.join(dir, spec.taskId), { recursive: true });
    await fs.writeFile(path.join(dir, spec.taskId, 'interaction_history.json'), JSON.stringify(paperLog(spec)));
  }
  const rows = await readPaperLogs(dir);
  assert.equal(rows.length, specs.length);
  return paperFigures(rows);
}

async function inTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-paper-logs-'));
  try {
    return await fn(root);
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}

const paperScored = (specs: readonly LogSpec[]) => inTempDir((dir) => paperScoredIn(dir, specs));

const META = { startedAt: 't', durationMs: 0, dataset: 'paper-logs', agents: ['paper-agent'], playwrightStatus: 'passed' };
const BOOT = { bootstrap: { resamples: 1, seed: 1, level: 0.95 } };

/** This project's figures for the logs' cases under a profile, named as the script names them. */
function projectFigures(specs: readonly LogSpec[], profile: ProfileName) {
  const report = buildReport(specs.flatMap((s) => recordsOf(s)), { ...META, profile }, BOOT);
  const o = report.overall;
  const figures: PaperFigures = {
    tcr: o.tcr, hr: o.hr, askRate: o.askRate, avgQuestions: o.questions, pcr: o.pcr, submitRate: o.submitRate, vci: profile === 'paper' ? o.vciPooled : o.vci, steps: o.steps,
    tcrByRole: Object.fromEntries(Object.entries(report.byPersona).map(([k, a]) => [k, a.tcr])),
  };
  return { o, figures };
}

/** Null where the other is null, else within 1e-9, figure by figure. */
function assertAgree(project: PaperFigures, paper: PaperFigures, what: string): void {
  const flat = (f: PaperFigures) => ({ ...f, tcrByRole: undefined, ...Object.fromEntries(Object.entries(f.tcrByRole).map(([k, v]) => [`tcr ${k}`, v])) });
  const [a, b] = [flat(project), flat(paper)] as Record<string, number | null | undefined>[];
  assert.deepEqual(Object.keys(a!).sort(), Object.keys(b!).sort(), `${what}: the same figures`);
  for (const k of Object.keys(b!)) {
    const [x, y] = [a![k], b![k]];
    if (x === undefined || y === undefined) continue;
    assert.ok(x === null || y === null ? x === y : Math.abs(x - y) < 1e-9, `${what}, ${k}: project ${x} against paper ${y}`);
  }
}

test("the paper's formulas and this project's metric code under the paper profile agree on every figure of the script's tables", async () => {
  const paper = await paperScored(LOGS);
  // The port itself, against figures worked out by hand from the logs above.
  const byHand = { tcr: (1 + 3 / 4 + 2 / 5 + 0 + 1 / 4 + 1 + 1 / 2) / 7, hr: 3 / 7, askRate: 3 / 7, avgQuestions: 4 / 7, pcr: 2 / 7, submitRate: 5 / 7, vci: 10 / 11, steps: 31 / 7 };
  for (const [k, v] of Object.entries(byHand)) assert.ok(Math.abs(paper[k as keyof typeof byHand]! - v) < 1e-12, `paper ${k}: ${paper[k as keyof typeof byHand]} against ${v} by hand`);

  const { o, figures } = projectFigures(LOGS, 'paper');
  assertAgree(figures, paper, 'hand-made logs');
  assert.equal(o.cases, LOGS.length);
  assert.equal(o.erroredSlots, 0, 'under the paper profile nothing of these logs is errored');
  assert.equal(o.slotsUnmentioned, 1 / 20, 'the one slot the judge never mentioned is counted apart');
  // The per-case mean VCI is a different figure on these logs: the parity rests on the pooled reading.
  assert.ok(Math.abs(o.vci! - o.vciPooled!) > 0.1, `per-case mean ${o.vci} vs pooled ${o.vciPooled}`);
});

test('thousands of seeded random logs in the paper\'s format: every figure agrees to 1e-9, run by run', () => inTempDir(async (root) => {
  const r = rng(20260427);
  let logs = 0;
  let runs = 0;
  const seen = { codeWithQuestion: 0, questionWithFinish: 0, error: 0, none: 0, noPositive: 0, unevaluatedRun: 0 };
  while (logs < 3000) {
    const specs = Array.from({ length: 1 + Math.floor(r() * 12) }, (_, i) => drawLog(r, i));
    const paper = await paperScoredIn(path.join(root, `run-${runs}`), specs);
    assertAgree(projectFigures(specs, 'paper').figures, paper, `run ${runs} (${specs.map((s) => s.taskId).join(' ')})`);
    logs += specs.length;
    runs++;
    for (const s of specs) {
      const rows = s.replies.map((x) => readPaperLog(s.taskId, { path_distribution_stats: {}, trajectory: [{ turn: 0, role: 'assistant', content: x }] }));
      if (rows.some((x) => x.codeWithOther > 0 && x.asks > 0)) seen.codeWithQuestion++;
      if (s.replies.some((x) => x.includes('type="finish"') && x.includes('type="ask_user"'))) seen.questionWithFinish++;
      if (s.outcome === 'error') seen.error++;
      if (s.outcome === 'none') seen.none++;
      if (s.slots.every((x) => x.type === 'NEGATIVE')) seen.noPositive++;
    }
    if (paper.askRate === null) seen.unevaluatedRun++;
  }
  // The draw reaches every case the issue names, so the agreement above covers them.
  for (const [k, n] of Object.entries(seen)) assert.ok(n > 0, `the generator drew ${k}`);
  process.stdout.write(`# compared ${logs} random logs in ${runs} runs: ${JSON.stringify(seen)}\n`);
}));

test('a crashed site: the paper scores TCR 0 and counts it hallucinated; so does the paper profile, through the crash rule', () => {
  const crashed = LOGS.find((l) => l.outcome === 'crashed')!;
  const row = readPaperLog(crashed.taskId, paperLog(crashed));
  assert.deepEqual([row.evaluated, row.tcr, row.hallucinated], [true, 0, 1]);
  const records = recordsOf(crashed);
  assert.ok(records.every((r) => r.status === 'fail' && r.evidence.startsWith('crashed on load')));
  const [c] = buildReport(records, { ...META, profile: 'paper' }, BOOT).cases;
  assert.deepEqual([c!.tcr, c!.hallucinated], [0, true]);
});

/** One reply, as the issue found each disagreement, scored both ways and under both profiles. */
async function bothWays(specs: readonly LogSpec[]) {
  return { paper: await paperScored(specs), underPaper: projectFigures(specs, 'paper'), underIwb: projectFigures(specs, 'iwb') };
}

test('code and a question in one reply: the script counts a code step before the question; iwb counts the question the harness acted on', async () => {
  const spec: LogSpec = { taskId: '11_P-MIN', replies: [`${code()}\n${ask('Blue or green?')}`, verify(), finish()], stopReason: 'submitted', slots: [P(1, true)] };
  const { paper, underPaper, underIwb } = await bothWays([spec]);
  // VCI: 1 verify over 1 code step counted twice; PCR 0: the reply's own code comes first.
  assert.deepEqual([paper.vci, paper.pcr, paper.avgQuestions], [0.5, 0, 1]);
  assertAgree(underPaper.figures, paper, 'code + question');
  // The harness writes no file for a question: under iwb no code step was taken, and the question came first.
  assert.deepEqual([underIwb.o.vci, underIwb.o.pcr, underIwb.o.questions], [null, 1, 1]);
});

test('finish and a question in one reply: the script counts a submit (and the question for PCR only); iwb counts the question the harness asked', async () => {
  const spec: LogSpec = { taskId: '12_P-RAM', replies: [`${finish()}\n${ask('Which colour?')}`, code(), verify()], stopReason: 'max_turns_reached', slots: [P(1, true), N(1, true)] };
  const { paper, underPaper, underIwb } = await bothWays([spec]);
  assert.deepEqual([paper.askRate, paper.avgQuestions, paper.submitRate, paper.pcr], [0, 0, 1, 1]);
  assertAgree(underPaper.figures, paper, 'finish + question');
  assert.deepEqual([underIwb.o.askRate, underIwb.o.questions, underIwb.o.submitRate, underIwb.o.pcr], [1, 1, 0, 1]);
});

test('code beside a verify or a finish, and a reply with no path: the script and iwb agree on the action and differ only in VCI', async () => {
  const spec: LogSpec = { taskId: '13_P-INT', replies: [prose(), code(), `${code('app.js')}\n${verify()}`, `${code('b.js')}\n${finish()}`], stopReason: 'submitted', slots: [P(1, true)] };
  const { paper, underPaper, underIwb } = await bothWays([spec]);
  // 1 verify over 3 code replies, 2 of them beside another path: 3 + 2.
  assert.deepEqual([paper.vci, paper.steps, paper.submitRate], [1 / 5, 6, 1]);
  assertAgree(underPaper.figures, paper, 'code + verify, code + finish, none');
  // iwb: the verify and the submit carried files; 1 verify over the 1 implement step; 4 steps.
  assert.deepEqual([underIwb.o.vci, underIwb.o.steps, underIwb.o.submitRate], [1, 4, 1]);
});

test('an evaluator ERROR and a log with no evaluation: the paper scores both TCR 0, the ERROR one graded (hallucinated with a NEGATIVE slot); iwb leaves both out', async () => {
  const specs: LogSpec[] = [
    { taskId: '21_P-MIN', replies: [code(), finish()], stopReason: 'submitted', slots: [P(1, true), N(1, true)] },
    { taskId: '22_P-MIN', replies: [ask('Why?'), code(), verify(), finish()], stopReason: 'submitted', slots: [P(1, true), P(1, false), N(1, false)] },
    { taskId: '23_P-CON', replies: [code(), finish()], stopReason: 'submitted', outcome: 'error', slots: [P(2, true), N(1, true)] },
    { taskId: '24_P-CON', replies: [code(), verify()], stopReason: 'max_turns_reached', outcome: 'none', slots: [P(1, true)] },
  ];
  const { paper, underPaper, underIwb } = await bothWays(specs);
  assert.deepEqual([paper.tcr, paper.hr, paper.submitRate, paper.avgQuestions], [(1 + 1 / 2 + 0 + 0) / 4, 2 / 3, 1, 1 / 3]);
  assertAgree(underPaper.figures, paper, 'ERROR and unevaluated');
  // Counted apart either way: the errored slots (ERROR's 2, the unevaluated case's 1) and the errored episode.
  assert.equal(underPaper.o.erroredSlots, 3);
  // iwb: the ERROR case's episode ran, so its behaviour counts; its verdicts and the unevaluated case do not.
  assert.deepEqual([underIwb.o.tcr, underIwb.o.hr, underIwb.o.submitRate, underIwb.o.questions], [(1 + 1 / 2) / 2, 1 / 2, 1, 1 / 3]);
  assert.equal(underIwb.o.erroredSlots, 3);
});
