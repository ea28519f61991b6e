import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser } from '@playwright/test';
import type { Trajectory, TrajectoryStep } from '../agent/trajectory.js';
import { PROFILES } from '../config/profiles.js';
import { judgeEpisode } from '../judge/episode-judgements.js';
import { ModelClient } from '../llm/client.js';
import { EpisodeAnnotationSchema, VisualAnnotationSchema } from '../protocol/annotations.js';
import { episodeAnnotation, visualAnnotation } from '../protocol/build.js';
import { scoreCase, type SlotRecord } from '../reporters/metrics.js';
import { reply, schemaName, start, type FakeServer, type RecordedRequest } from '../testkit/fake-server.js';
import { launch, makeCase, slot, tempSite, type TempSite } from './judge-support.js';

const SITE = `<!doctype html><html><head><title>To-do</title></head><body><h1>To-do</h1><button>Add</button></body></html>`;
const NOISY = SITE.replace('</body>', `<script>console.error('tracker: failed to start')</script></body>`);
const c = makeCase([slot('s1'), slot('s2', { assertionType: 'NEGATIVE' })]);

let fake: FakeServer;
let browser: Browser;
let site: TempSite;
let noisy: TempSite;
let tmp: string;
before(async () => {
  [fake, browser, site, noisy] = await Promise.all([start(), launch(), tempSite({ 'index.html': SITE }), tempSite({ 'index.html': NOISY })]);
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-episode-judgements-'));
});
after(async () => {
  await Promise.all([fake?.close(), browser?.close(), site?.dispose(), noisy?.dispose()]);
  await fs.rm(tmp, { recursive: true, force: true });
});

function judgeModel(req: RecordedRequest) {
  if (schemaName(req) === 'visual_score') return reply.json({ layout: 4, creativeAlignment: 4, overall: 4, rationale: 'plain' });
  if (schemaName(req) === 'intent_judgement') return reply.json({ slotHits: [{ slot: 's1', hit: true }, { slot: 's2', hit: false }], ias: 4, rationale: 'asked about the list' });
  return reply.status(400, `unexpected request ${schemaName(req) ?? ''}`);
}

/** One implement and a submit; `reasoning` puts text of the agent's own on the implement step. */
function trajectory(caseId: string, extra: Partial<TrajectoryStep> = {}): Trajectory {
  const usage = { promptTokens: 10, completionTokens: 5 };
  return {
    schemaVersion: 1, caseId, persona: 'P-MIN', difficulty: 'easy', agent: { name: 'a1', config: {} }, caseHash: 'h', stepCap: 10,
    status: 'submitted', startedAt: '2026-01-01T00:00:00Z', durationMs: 100,
    steps: [
      { index: 0, action: 'implement', args: { files: [{ path: 'index.html', bytes: SITE.length }] }, observation: 'wrote index.html', latencyMs: 5, usage, ...extra },
      { index: 1, action: 'submit', args: {}, observation: 'submitted', latencyMs: 1 },
    ],
    counts: { clarify: 0, implement: 1, verify: 0, submit: 1, invalid: 0 }, questionBeforeCode: false, linesOfCode: 1, files: ['index.html'], tokens: usage,
  };
}

async function judged(name: string, t: Trajectory) {
  const dir = path.join(tmp, name);
  await fs.mkdir(dir, { recursive: true });
  const client = new ModelClient({ role: 'judge', model: 'fake-judge', baseURL: fake.baseURL, apiKey: 'k' }, { retry: { retries: 0, timeoutMs: 5000 }, schemaRetries: 1 });
  const before = fake.requests.filter((r) => schemaName(r) === 'intent_judgement').length;
  const j = await judgeEpisode({ episode: { dir, workspace: site.root, trajectory: t }, case: c, browser, url: site.url, client });
  const asked = fake.requests.filter((r) => schemaName(r) === 'intent_judgement').length - before;
  const episode = EpisodeAnnotationSchema.parse(JSON.parse(episodeAnnotation(t, { agent: 'a1', cached: false, degraded: null, usage: [], ...(j.intent ? { intent: j.intent } : {}) }).description));
  const records: SlotRecord[] = c.slots.map((s) => ({ caseId: c.id, taskId: c.taskId, persona: c.persona, difficulty: c.difficulty, slotId: s.id, targetComponent: s.targetComponent, assertionType: s.assertionType, weight: s.weight, cTech: s.cTech, status: 'pass', evidence: '', episode }));
  return { j, asked, ias: { iwb: scoreCase(records, PROFILES.iwb).ias, paper: scoreCase(records, PROFILES.paper).ias } };
}

test('the intent judge is not asked about a trajectory with no reasoning text (its IAS is the profile\'s fixed value), and is asked once about one with reasoning', async () => {
  fake.script(judgeModel);
  const silent = await judged('silent', trajectory('silent_P-MIN'));
  assert.equal(silent.asked, 0, 'no intent request for a trajectory with nothing of the agent\'s own to read');
  assert.equal(silent.j.intent, undefined);
  assert.deepEqual(silent.ias, { iwb: null, paper: 1 }, 'iwb leaves it unscored, paper scores it 1, without a model call');
  assert.ok(fake.requests.some((r) => schemaName(r) === 'visual_score'), 'the rest of the episode judgement still ran against the judge model');

  const thinking = await judged('thinking', trajectory('thinking_P-MIN', { reasoning: 'A list with an Add button, nothing else.' }));
  assert.equal(thinking.asked, 1, 'a trajectory with reasoning is judged');
  assert.equal(thinking.j.intent?.ias, 4);
  assert.deepEqual(thinking.ias, { iwb: 4, paper: 4 }, 'with reasoning, both profiles take the judge\'s score');
  const request = fake.requests.find((r) => schemaName(r) === 'intent_judgement')!;
  assert.match(JSON.stringify(request.body.messages), /to-do list page with an Add button/, 'the request was about this case');
  assert.match(JSON.stringify(request.body.messages), /A list with an Add button, nothing else\./, 'the judge reads the reasoning it scores');
});

test('the crash rule\'s finding rides on the visual annotation the reporter reads back, so the case page can show it', async () => {
  const dir = path.join(tmp, 'noisy');
  await fs.mkdir(dir, { recursive: true });
  const j = await judgeEpisode({ episode: { dir, workspace: noisy.root, trajectory: trajectory('noisy_P-MIN') }, case: c, browser, url: noisy.url, crashRule: true });
  const read = VisualAnnotationSchema.parse(JSON.parse(visualAnnotation(j.visual).description));
  assert.equal(read.crash?.crashed, true);
  assert.match(read.crash?.reason ?? '', /tracker: failed to start/);
  assert.deepEqual(read.crash, j.crash, 'the same finding the judge acted on');
  await fs.mkdir(path.join(tmp, 'clean'), { recursive: true });
  const clean = await judgeEpisode({ episode: { dir: path.join(tmp, 'clean'), workspace: site.root, trajectory: trajectory('silent_P-MIN') }, case: c, browser, url: site.url });
  assert.equal(clean.visual.crash, undefined, 'without the rule there is no finding to show');
});
