import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { buildReport } from '../reporters/report.js';
import { paperFigures, readPaperLog, readPaperLogs } from './paper-analyze.js';
import { paperLog, recordsOf, reply, type LogSpec } from './paper-logs.js';

/**
 * Parity with the paper's scoring: hand-made logs in the paper's format are scored by the paper's
 * formulas (test/paper-analyze.ts, restated from its result_analyze.py) and, converted into this
 * project's slot records as a run would produce them, by this project's metric code under the paper
 * profile. The headline figures must agree.
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
  { taskId: '4_P-CON', replies: [ask('Dark or light?'), ask('Are you sure?'), code(), finish()], stopReason: 'submitted', crashed: true, slots: [P(2, true), P(1, true), N(1, true)] },
  // A question after the first code (no PCR credit); no NEGATIVE slot (HR 0).
  { taskId: '5_P-MIN', replies: [code(), ask('Which font?'), verify(), finish()], stopReason: 'submitted', slots: [P(1, true), P(3, false)] },
  // Looks four times after one code turn and stops on a verification deadlock.
  { taskId: '6_P-RAM', replies: [code(), verify(), verify(), verify(), verify()], stopReason: 'verification_deadlock', slots: [P(2, true), N(1, true)] },
  // Blind: code, submit; the NEGATIVE slot fails.
  { taskId: '7_P-INT', replies: [code(), finish()], stopReason: 'submitted', slots: [P(1, false), P(1, true), N(2, false)] },
];

async function writeLogs(specs: readonly LogSpec[]): Promise<string> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-paper-logs-'));
  for (const spec of specs) {
    await fs.mkdir(path.join(root, spec.taskId), { recursive: true });
    await fs.writeFile(path.join(root, spec.taskId, 'interaction_history.json'), JSON.stringify(paperLog(spec), null, 2));
  }
  return root;
}

const META = { startedAt: 't', durationMs: 0, dataset: 'paper-logs', agents: ['paper-agent'], playwrightStatus: 'passed' };
const BOOT = { bootstrap: { resamples: 100, seed: 1, level: 0.95 } };

function projectFigures(specs: readonly LogSpec[], profile: 'paper' | 'iwb') {
  const records = specs.flatMap((s) => recordsOf(s.taskId, paperLog(s)));
  const o = buildReport(records, { ...META, profile }, BOOT).overall;
  return { o, figures: { tcr: o.tcr, hr: o.hr, askRate: o.askRate, avgQuestions: o.questions, pcr: o.pcr, submitRate: o.submitRate, vci: profile === 'paper' ? o.vciPooled : o.vci } };
}

test("the paper's formulas and this project's metric code under the paper profile agree on TCR, HR, PCR, submit rate, VCI, ask rate and questions", async () => {
  const root = await writeLogs(LOGS);
  const rows = await readPaperLogs(root);
  await fs.rm(root, { recursive: true, force: true });
  assert.equal(rows.length, LOGS.length);
  const paper = paperFigures(rows);
  // The port itself, against figures worked out by hand from the logs above.
  const byHand = { tcr: (1 + 3 / 4 + 2 / 5 + 0 + 1 / 4 + 1 + 1 / 2) / 7, hr: 3 / 7, askRate: 3 / 7, avgQuestions: 4 / 7, pcr: 2 / 7, submitRate: 5 / 7, vci: 10 / 11 };
  for (const [k, v] of Object.entries(byHand)) assert.ok(Math.abs(paper[k as keyof typeof paper]! - v) < 1e-12, `paper ${k}: ${paper[k as keyof typeof paper]} against ${v} by hand`);

  const { o, figures } = projectFigures(LOGS, 'paper');
  for (const k of Object.keys(paper) as (keyof typeof paper)[]) {
    assert.ok(figures[k] !== null && Math.abs(figures[k]! - paper[k]!) < 1e-12, `${k}: project ${figures[k]} against paper ${paper[k]}`);
  }
  assert.equal(o.cases, LOGS.length);
  assert.equal(o.erroredSlots, 0, 'under the paper profile nothing of these logs is errored');
  assert.equal(o.slotsUnmentioned, 1 / 20, 'the one slot the judge never mentioned is counted apart');
  // The per-case mean VCI is a different figure on these logs: the parity rests on the pooled reading.
  assert.ok(Math.abs(o.vci! - o.vciPooled!) > 0.1, `per-case mean ${o.vci} vs pooled ${o.vciPooled}`);
});

test('a crashed site: the paper scores TCR 0 and counts it hallucinated; so does the paper profile, through the crash rule', () => {
  const crashed = LOGS.find((l) => l.crashed)!;
  const row = readPaperLog(crashed.taskId, paperLog(crashed));
  assert.deepEqual([row.evaluated, row.tcr, row.hallucinated], [true, 0, 1]);
  const records = recordsOf(crashed.taskId, paperLog(crashed));
  assert.ok(records.every((r) => r.status === 'fail' && r.evidence.startsWith('crashed on load')));
  const [c] = buildReport(records, { ...META, profile: 'paper' }, BOOT).cases;
  assert.deepEqual([c!.tcr, c!.hallucinated], [0, true]);
});

test("a reply with code and a verify counts twice among the code steps, as in the paper's script, and the VCIs agree", () => {
  // One reply writes a file and asks for a screenshot: the paper's protocol writes the file and verifies.
  const mixed: LogSpec = { taskId: '8_P-MIN', replies: [code(), `${code()}\n${verify()}`, finish()], stopReason: 'submitted', slots: [P(1, true)] };
  const paper = paperFigures([readPaperLog(mixed.taskId, paperLog(mixed))]);
  const { o } = projectFigures([mixed], 'paper');
  // Paper: 1 verify over 2 code turns + 1 more for the mixed one, which its script counts again as code the verify swallowed.
  assert.equal(paper.vci, 1 / 3);
  assert.equal(o.vciPooled, paper.vci);
  // The per-case reading counts the mixed reply as the verify step it was: 1 verify over 1 implement.
  assert.equal(o.vci, 1);
  assert.deepEqual([o.tcr, o.hr, o.submitRate, o.pcr], [paper.tcr, paper.hr, paper.submitRate, paper.pcr]);
});
