import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { linesOfCode, linesOfCodePaper, splitLinesCount, Workspace } from '../agent/workspace.js';
import { EpisodeAnnotationSchema, VerdictAnnotationSchema, type EpisodeAnnotation } from '../protocol/annotations.js';
import { episodeAnnotation, verdictAnnotation, type EpisodeRecord } from '../protocol/build.js';
import { formatMarkdown, formatText } from '../reporters/format.js';
import { renderSummary } from '../reporters/html-summary.js';
import type { SlotRecord } from '../reporters/metrics.js';
import { buildReport } from '../reporters/report.js';
import { ReportSchema } from '../reporters/report-schema.js';

/**
 * The metric side of the two profiles: the readings report.json carries whatever the profile (pooled VCI,
 * the paper's LOC, visual score means, errored or unmentioned slots) and the rules a profile changes
 * (headline VCI, IAS of a trajectory without reasoning). Episodes are hand-made trajectories turned into
 * annotations by the same builder a run uses.
 */

type Step = EpisodeRecord['steps'][number];
const ask = (question = 'Which colour?'): Step => ({ action: 'clarify', args: { question }, userTurn: { question, retrievedSlotIds: [] } });
const code: Step = { action: 'implement', args: {} };
const look: Step = { action: 'verify', args: { path: '/' } };
const finish: Step = { action: 'submit', args: {} };

/** A trajectory as the episode loop records it, counted the way the loop counts its steps. */
function trajectory(steps: Step[], over: Partial<EpisodeRecord> = {}): EpisodeRecord {
  const counts = { clarify: 0, implement: 0, verify: 0, submit: 0, invalid: 0 };
  let coded = false;
  let questionBeforeCode = false;
  for (const s of steps) {
    counts[s.action as keyof typeof counts]++;
    if (s.action === 'clarify' && !coded) questionBeforeCode = true;
    if (s.action === 'implement') coded = true;
  }
  const status = steps.at(-1)?.action === 'submit' ? 'submitted' : 'step-cap';
  return { status, steps, stepCap: 20, counts, questionBeforeCode, linesOfCode: 10, tokens: { promptTokens: 0, completionTokens: 0 }, durationMs: 1, ...over };
}

/** The annotation a run attaches, read back through its schema as the reporter reads it. */
function annotated(t: EpisodeRecord, intentIas: number | null = null): EpisodeAnnotation {
  const intent = intentIas === null ? {} : { intent: { ias: intentIas, hitSlots: [], model: 'judge', tokens: { prompt: 0, completion: 0 } } };
  const a = episodeAnnotation(t, { agent: 'a1', cached: false, degraded: null, usage: [], ...intent });
  return EpisodeAnnotationSchema.parse(JSON.parse(a.description));
}

function slots(caseId: string, episode: EpisodeAnnotation, statuses: SlotRecord['status'][], over: Partial<SlotRecord>[] = []): SlotRecord[] {
  return statuses.map((status, i) => ({
    caseId, taskId: caseId.split('_')[0]!, persona: 'P-MIN', difficulty: 'easy', slotId: `s${i + 1}`, targetComponent: `C${i}`,
    assertionType: 'POSITIVE', weight: 1, cTech: 1, status, evidence: '', episode, ...over[i],
  }));
}

const meta = (profile: string) => ({ startedAt: 't', durationMs: 0, dataset: 'd', agents: ['a1'], playwrightStatus: 'passed', profile });
const boot = { bootstrap: { resamples: 200, seed: 3, level: 0.95 } };

test('pooled VCI on hand-made trajectories differs from the mean of per-case ratios; the profile picks the headline, both are in report.json', () => {
  // 1 verify per implement; 1 verify over 9 implements; 3 verifies and no code (no per-case ratio, but in the pool).
  const records = [
    ...slots('a_P-MIN', annotated(trajectory([code, look, finish])), ['pass']),
    ...slots('b_P-MIN', annotated(trajectory([...Array(9).fill(code), look, finish])), ['pass']),
    ...slots('c_P-MIN', annotated(trajectory([look, look, look, finish])), ['fail']),
  ];
  const iwb = buildReport(records, meta('iwb'), boot);
  const paper = buildReport(records, meta('paper'), boot);
  for (const r of [iwb, paper]) {
    assert.equal(r.overall.vci, (1 + 1 / 9) / 2, 'mean of the per-case ratios, over the 2 cases with code');
    assert.equal(r.overall.vciPooled, 5 / 10, 'total verify steps over total implement steps, over all 3 cases');
    assert.equal(r.overall.n.vciPooled, 3);
    assert.ok(r.overall.ci.vciPooled && r.overall.ci.vciPooled[0] <= 0.5 && r.overall.ci.vciPooled[1] >= 0.5);
    assert.match(formatMarkdown(r), /VCI \| VCI \(pooled\)/, 'the full table carries both readings under either profile');
  }
  const header = (r: typeof iwb) => formatText(r).split('\n')[1]!;
  assert.match(header(iwb), /\bVCI\b/);
  assert.doesNotMatch(header(iwb), /pooled/);
  assert.match(header(paper), /VCI \(pooled\)/);
  assert.doesNotMatch(header(paper).replace('VCI (pooled)', ''), /\bVCI\b/, 'one VCI column: the profile headline');
  assert.match(renderSummary(paper), /VCI \(pooled\)<\/div><div class="v">0\.50</);
  assert.doesNotMatch(renderSummary(iwb), /VCI \(pooled\)/);
  assert.match(renderSummary(iwb), /VCI<\/div><div class="v">0\.56</);
});

test('IAS of a trajectory with no reasoning text and no question: 1 under paper, not scored under iwb; with reasoning the judge decides', () => {
  const silent = annotated(trajectory([code, finish]), 4);
  const thinking = annotated(trajectory([{ ...code, reasoning: 'A lavender page, so a light theme.' }, finish]), 4);
  const asking = annotated(trajectory([ask(), code, finish]), 3);
  const noJudge = annotated(trajectory([code, finish]));
  assert.equal(silent.hasReasoning, false);
  assert.equal(thinking.hasReasoning, true);
  assert.equal(asking.hasReasoning, true, 'a question is text of the agent an intent judge reads, as the paper reads prose');
  const records = [...slots('a_P-MIN', silent, ['pass']), ...slots('b_P-MIN', thinking, ['pass']), ...slots('c_P-MIN', asking, ['pass']), ...slots('d_P-MIN', noJudge, ['pass'])];
  const ias = (profile: string) => buildReport(records, meta(profile), boot).cases.map((c) => c.ias);
  assert.deepEqual(ias('paper'), [1, 4, 3, 1]);
  assert.deepEqual(ias('iwb'), [null, 4, 3, null]);
  // An episode recorded before the flag existed keeps the judge's score under either profile.
  const old = { ...silent };
  delete old.hasReasoning;
  assert.deepEqual(buildReport(slots('a_P-MIN', old, ['pass']), meta('paper'), boot).cases.map((c) => c.ias), [4]);
});

test("locPaper counts every line of every final file as the paper does; LOC counts non-blank source lines; both reach report.json", async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-loc-'));
  const write = async (rel: string, text: string) => {
    await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await fs.writeFile(path.join(dir, rel), text);
  };
  await write('index.html', '<!doctype html>\n\n<p>hi</p>\n'); // 3 lines, 2 non-blank
  await write('app.js', 'let a = 1;\r\nlet b = 2;'); // 2 lines, no final newline
  await write('notes.txt', 'one\ntwo\nthree\n'); // not source: only the paper counts it
  await write('src/deep/style.css', 'p{}\n');
  await write('node_modules/x/index.js', 'a\nb\nc\n');
  await write('dist/bundle.js', 'a\nb\n');
  await write('.next/cache.json', '{}\n');
  await write('sub/package-lock.json', '{\n}\n');
  await write('package-lock.json', '{\n}\n');
  assert.equal(await linesOfCodePaper(dir), 3 + 2 + 3 + 1);
  assert.equal(await linesOfCode(await Workspace.open(dir)), 2 + 2 + 1 + 1, 'source lines only, blank lines out (.next/cache.json is JSON it keeps)');
  assert.deepEqual(['', 'a', 'a\n', 'a\n\n', 'a\rb', 'a\r\nb\n', 'a\u2028b'].map(splitLinesCount), [0, 1, 1, 2, 2, 2, 2], "Python's str.splitlines counts");
  await fs.rm(dir, { recursive: true, force: true });

  const withLoc = annotated(trajectory([code, finish], { locPaper: 9, linesOfCode: 5 }));
  const old = annotated(trajectory([code, finish], { linesOfCode: 7 }));
  const r = buildReport([...slots('a_P-MIN', withLoc, ['pass']), ...slots('b_P-MIN', old, ['pass'])], meta('iwb'), boot);
  assert.deepEqual(r.cases.map((c) => [c.linesOfCode, c.locPaper]), [[5, 9], [7, null]]);
  assert.equal(r.overall.locPaper, 9, 'a case recorded before locPaper existed is left out, not counted 0');
  assert.equal(r.overall.n.locPaper, 1);
  assert.equal(r.overall.linesOfCode, 6);
});

test('visual score means (layout, creative alignment, overall) over the cases the judge model scored', () => {
  const ep = annotated(trajectory([code, finish]));
  const scored = (layout: number, creativeAlignment: number, overall: number) => ({ visual: { bug: false, findings: [], scores: { layout, creativeAlignment, overall } } });
  const records = [
    ...slots('a_P-MIN', ep, ['pass', 'pass'], [scored(4, 2, 3), scored(4, 2, 3)]),
    ...slots('b_P-MIN', ep, ['pass'], [scored(2, 5, 4)]),
    ...slots('c_P-MIN', ep, ['pass'], [{ visual: { bug: true, findings: ['overflow'] } }]),
  ];
  const r = buildReport(records, meta('paper'), boot);
  assert.deepEqual([r.overall.visualLayout, r.overall.visualCreative, r.overall.visualOverall], [3, 3.5, 3.5]);
  assert.equal(r.overall.n.visualOverall, 2, 'a page without scores (no judge model) is left out');
  assert.deepEqual(r.cases[0]!.visualScores, { layout: 4, creativeAlignment: 2, overall: 3 });
  assert.equal(r.cases[2]!.visualScores, null);
});

test('the unmentioned marker travels from verdict to report; the shares of errored-or-unmentioned and unmentioned slots are pooled over slots', () => {
  const marked = VerdictAnnotationSchema.parse(JSON.parse(verdictAnnotation({ status: 'fail', judge: 'llm', evidence: 'never given a verdict', unmentioned: true }).description));
  assert.equal(marked.unmentioned, true);
  assert.equal(VerdictAnnotationSchema.parse(JSON.parse(verdictAnnotation({ status: 'fail', judge: 'llm', evidence: 'x' }).description)).unmentioned, undefined);
  const ep = annotated(trajectory([code, finish]));
  const u = { unmentioned: true };
  // a: 4 slots, one unmentioned (failed, as under paper), one errored by the harness. b: 2 slots, one
  // unmentioned and errored (as under iwb). 3 of 6 errored or unmentioned, 2 of 6 unmentioned.
  const records = [...slots('a_P-MIN', ep, ['pass', 'fail', 'errored', 'pass'], [{}, u, {}, {}]), ...slots('b_P-MIN', ep, ['errored', 'pass'], [u, {}])];
  const r = buildReport(records, meta('paper'), boot);
  assert.equal(r.overall.slotsErroredOrUnmentioned, 3 / 6);
  assert.equal(r.overall.slotsUnmentioned, 2 / 6);
  assert.deepEqual(r.cases[0]!.slots.map((s) => s.unmentioned ?? false), [false, true, false, false]);
  assert.equal(r.byPersona['P-MIN']!.slotsUnmentioned, 2 / 6);
  assert.match(formatText(r), /33\.3% of slots never mentioned by the judge/, 'the terminal says so beside the errored counts');
  assert.doesNotMatch(formatText(buildReport(slots('a_P-MIN', ep, ['pass']), meta('paper'), boot)), /never mentioned/);
});

test('a report written before these rows reads back: a missing metric is null with no interval, on 0 cases', () => {
  const r = buildReport(slots('a_P-MIN', annotated(trajectory([code, finish])), ['pass']), meta('paper'), boot);
  const raw = JSON.parse(JSON.stringify(r)) as { overall: Record<string, unknown> & { ci: Record<string, unknown>; n: Record<string, unknown> }; cases: Record<string, unknown>[] };
  for (const k of ['vciPooled', 'locPaper', 'visualLayout', 'slotsUnmentioned']) {
    delete raw.overall[k];
    delete raw.overall.ci[k];
    delete raw.overall.n[k];
  }
  delete raw.cases[0]!.locPaper;
  delete raw.cases[0]!.visualScores;
  const back = ReportSchema.parse(raw);
  assert.deepEqual([back.overall.vciPooled, back.overall.ci.locPaper, back.overall.n.visualLayout, back.cases[0]!.locPaper], [null, null, 0, null]);
});

test('a run records the paper LOC and whether the trajectory holds reasoning, and the annotation carries both', async () => {
  const { runEpisode } = await import('../agent/episode.js');
  const { BAKERY_TASK, exampleCase } = await import('./example-task.js');
  const c = exampleCase(BAKERY_TASK, 'P-MIN', 'Make me a bakery page.');
  const replies = [
    { action: { type: 'clarify', question: 'Which colours?' } },
    { action: { type: 'submit' }, reasoning: 'Done.', writes: [{ path: 'index.html', content: '<h1>Bakery</h1>\n\n<p>Bread</p>' }, { path: 'dist/app.js', content: 'x\ny\n' }] },
  ];
  const agent = { name: 'scripted', config: {}, start: async () => ({ next: async () => replies.shift()! as never }) };
  const user = { answer: async (q: string) => ({ question: q, answer: 'Brown.', retrievedSlotIds: [], leakCheck: { leakedSlotIds: [], method: 'lexical' as const }, retries: 0, refused: false, tokens: { prompt: 0, completion: 0 }, source: 'offline' as const }) };
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-loc-run-'));
  // Neither step opens the site, so no browser is needed.
  const t = await runEpisode({ case: c, agent, browser: undefined as never, user, dir, stepCap: 5, caseHash: 'h' });
  await fs.rm(dir, { recursive: true, force: true });
  assert.equal(t.status, 'submitted');
  assert.deepEqual([t.locPaper, t.linesOfCode], [3, 2], 'dist is left out of both; the paper counts the blank line');
  const a = annotated(t);
  assert.deepEqual([a.locPaper, a.hasReasoning, a.counts.clarify, a.questionBeforeCode], [3, true, 1, true]);
});
