import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Trajectory, TrajectoryStep } from '../agent/trajectory.js';
import { PROFILES } from '../config/profiles.js';
import { getIntent } from '../judge/intent-cache.js';
import { TRACE_LIMITS, cutMiddle, renderTrace } from '../judge/intent-trace.js';
import { ModelClient } from '../llm/client.js';
import { EpisodeAnnotationSchema } from '../protocol/annotations.js';
import { episodeAnnotation } from '../protocol/build.js';
import type { UserTurn } from '../personas/types.js';
import { scoreCase, type SlotRecord } from '../reporters/metrics.js';
import { reply, schemaName, start, type FakeServer, type RecordedRequest } from '../testkit/fake-server.js';
import { makeCase, slot } from './judge-support.js';

const c = makeCase([slot('s1'), slot('s2', { assertionType: 'NEGATIVE' })]);
const FILE_MARK = 'FILE-CONTENT-THE-JUDGE-NEVER-READS';

let fake: FakeServer;
let tmp: string;
before(async () => {
  fake = await start();
  // Awkward as a real provider: JSON in a Markdown fence.
  fake.quirks({ fenceJson: true });
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-judge-intent-'));
});
after(async () => {
  await fake?.close();
  await fs.rm(tmp, { recursive: true, force: true });
});

const usage = { promptTokens: 10, completionTokens: 5 };
const turn = (question: string, answer: string): UserTurn => ({ question, answer, retrievedSlotIds: [], leakCheck: { leakedSlotIds: [], method: 'lexical' }, retries: 0, refused: false, tokens: { prompt: 1, completion: 1 } });

function step(index: number, action: TrajectoryStep['action'], extra: Partial<TrajectoryStep> = {}): TrajectoryStep {
  return { index, action, args: {}, observation: 'ok', latencyMs: 1, usage, ...extra };
}

function trajectory(steps: TrajectoryStep[]): Trajectory {
  const count = (a: string) => steps.filter((s) => s.action === a).length;
  return {
    schemaVersion: 1, caseId: c.id, persona: 'P-MIN', difficulty: 'easy', agent: { name: 'a1', config: {} }, caseHash: 'h', stepCap: 400,
    status: 'submitted', startedAt: '2026-01-01T00:00:00Z', durationMs: 100, steps,
    counts: { clarify: count('clarify'), implement: count('implement'), verify: count('verify'), submit: count('submit'), invalid: 0 },
    questionBeforeCode: true, linesOfCode: 1, files: ['index.html'], tokens: usage,
  };
}

/** A case folder with a final site whose text is easy to spot in a request. */
async function episodeDir(name: string, t: Trajectory) {
  const dir = path.join(tmp, name);
  await fs.mkdir(path.join(dir, 'workspace'), { recursive: true });
  await fs.writeFile(path.join(dir, 'workspace', 'index.html'), `<h1>${FILE_MARK}</h1>`);
  return { dir, workspace: path.join(dir, 'workspace'), trajectory: t };
}

const client = () => new ModelClient({ role: 'judge', model: 'fake-judge', baseURL: fake.baseURL, apiKey: 'k' }, { retry: { retries: 0, timeoutMs: 5000 }, schemaRetries: 1 });
const intentRequests = () => fake.requests.filter((r) => schemaName(r) === 'intent_judgement');
const userText = (r: RecordedRequest) => r.body.messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n');
const judgeReplies = (ias: number) => fake.script(() => reply.json({ rationale: 'it read the list right', slotHits: [{ slot: 's1', hit: true }, { slot: 's2', hit: false }], ias }));

const small = () => trajectory([
  step(0, 'clarify', { reasoning: 'REASON-A: the request is thin, a list of what?', userTurn: turn('QUESTION-1: what goes on the list?', 'ANSWER-1: chores') }),
  step(1, 'implement', { reasoning: 'REASON-B: a chores list with an Add button' }),
  step(2, 'implement', {}),
  step(3, 'submit', { reasoning: 'REASON-C: done, the Add button works' }),
]);

test('the intent judge reads every step\'s reasoning, each question and its answer, and the persona\'s distortion, not the files; its score is the case\'s IAS', async () => {
  fake.reset();
  judgeReplies(2);
  const episode = await episodeDir('small', small());
  const j = await getIntent(episode, c, client());
  assert.equal(intentRequests().length, 1);
  const text = userText(intentRequests()[0]!);
  for (const mark of ['REASON-A', 'REASON-B', 'REASON-C', 'QUESTION-1: what goes on the list?', 'ANSWER-1: chores']) assert.ok(text.includes(mark), `the request carries ${mark}`);
  assert.ok(text.indexOf('REASON-A') < text.indexOf('QUESTION-1') && text.indexOf('QUESTION-1') < text.indexOf('REASON-B'), 'in the order the agent wrote them');
  assert.match(text, /Incomplete: states only what kind of site is wanted/, 'the persona\'s distortion, as the paper gives its judge');
  assert.match(text, /Nothing was cut from this one/);
  assert.ok(!text.includes(FILE_MARK), 'the final files are not the judge\'s evidence of intent (the paper\'s judge reads the trace only)');

  assert.equal(j.ias, 2);
  assert.deepEqual(j.hitSlots, ['s1']);
  const episodeRecord = EpisodeAnnotationSchema.parse(JSON.parse(episodeAnnotation(episode.trajectory, { agent: 'a1', cached: false, degraded: null, usage: [], intent: j }).description));
  const records: SlotRecord[] = c.slots.map((s) => ({ caseId: c.id, taskId: c.taskId, persona: c.persona, difficulty: c.difficulty, slotId: s.id, targetComponent: s.targetComponent, assertionType: s.assertionType, weight: s.weight, cTech: s.cTech, status: 'pass', evidence: '', episode: episodeRecord }));
  assert.equal(scoreCase(records, PROFILES.iwb).ias, 2);
  assert.equal(scoreCase(records, PROFILES.paper).ias, 2);
});

test('a huge trajectory gives a bounded request: the first and last steps keep their reasoning, every question stays, and the judge is told what was cut', async () => {
  fake.reset();
  judgeReplies(3);
  const steps: TrajectoryStep[] = [];
  for (let i = 0; i < 300; i++) {
    const body = `STEP-${i}-START ${'x'.repeat(8000)} STEP-${i}-END`;
    steps.push(i % 50 === 25 ? step(i, 'clarify', { reasoning: body, userTurn: turn(`QUESTION-AT-${i}? ${'q'.repeat(2000)}`, `ANSWER-AT-${i} ${'a'.repeat(2000)}`) }) : step(i, 'implement', { reasoning: body }));
  }
  const episode = await episodeDir('huge', trajectory(steps));
  const j = await getIntent(episode, c, client());
  assert.equal(j.ias, 3);
  const text = userText(intentRequests()[0]!);
  assert.ok(text.length < TRACE_LIMITS.total + 4000, `the request is bounded (${text.length} characters for ${300 * 8000} of reasoning)`);
  for (const mark of ['STEP-0-START', 'STEP-0-END', 'STEP-1-START', 'STEP-299-START', 'STEP-299-END']) assert.ok(text.includes(mark), `${mark} kept`);
  assert.ok(!text.includes('STEP-150-START'), 'the middle steps\' reasoning is what goes');
  for (let i = 25; i < 300; i += 50) assert.ok(text.includes(`QUESTION-AT-${i}?`) && text.includes(`ANSWER-AT-${i}`), `question ${i} and its answer kept`);
  assert.match(text, /This trace was shortened: \d+ step\(s\) had their reasoning cut/);
  assert.match(text, /\d+ step\(s\) in the middle had their reasoning left out/);
  assert.match(text, /\[\.\.\. \d+ characters left out \.\.\.\]/);
});

test('renderTrace: per-step cut keeps start and end; a flood of questions is still cut to the total', () => {
  const long = `HEAD ${'m'.repeat(9000)} TAIL`;
  const one = renderTrace([step(0, 'implement', { reasoning: long })]);
  assert.equal(one.stepsCut, 1);
  assert.ok(one.text.includes('HEAD') && one.text.includes('TAIL') && one.text.length < TRACE_LIMITS.reasoningPerStep + 100);
  assert.equal(cutMiddle('short', 10), 'short');
  assert.ok(cutMiddle('y'.repeat(5000), 300).length <= 300);
  const flood = Array.from({ length: 200 }, (_, i) => step(i, 'clarify', { userTurn: turn(`Q${i} ${'q'.repeat(500)}`, `A${i} ${'a'.repeat(500)}`) }));
  const t = renderTrace(flood);
  assert.ok(t.middleCut && t.text.length <= TRACE_LIMITS.total);
  assert.ok(t.text.includes('Q0 ') && t.text.includes('A199 '), 'the first and the last question survive');
  assert.equal(renderTrace([step(0, 'implement'), step(1, 'submit')]).text, '', 'code-only steps give the judge nothing');
});

test('intent.json is reused only for the same prompt: a changed trace, or a judgement from before the prompt key, is judged again', async () => {
  fake.reset();
  judgeReplies(4);
  const first = await episodeDir('cache-a', small());
  await getIntent(first, c, client());
  const stored = JSON.parse(await fs.readFile(path.join(first.dir, 'intent.json'), 'utf8')) as Record<string, unknown>;
  assert.equal(typeof stored.promptKey, 'string');
  assert.equal(intentRequests().length, 1);

  const copy = async (name: string, t: Trajectory, content: string) => {
    const e = await episodeDir(name, t);
    await fs.writeFile(path.join(e.dir, 'intent.json'), content);
    return getIntent(e, c, client());
  };
  const same = await copy('cache-b', small(), JSON.stringify(stored));
  assert.equal(intentRequests().length, 1, 'same trace, same prompt: the stored judgement is served');
  assert.equal(same.ias, 4);
  assert.equal('promptKey' in same, false, 'the key stays in the cache file, out of the annotation');

  const changed = small();
  changed.steps[1]!.reasoning = 'REASON-B2: a shopping list instead';
  await copy('cache-c', changed, JSON.stringify(stored));
  assert.equal(intentRequests().length, 2, 'another trace is another prompt: judged again');
  assert.ok(userText(intentRequests()[1]!).includes('REASON-B2'));

  const { promptKey: _k, ...old } = stored;
  await copy('cache-d', small(), JSON.stringify(old));
  assert.equal(intentRequests().length, 3, 'a judgement stored before prompts were keyed is not served');
});
