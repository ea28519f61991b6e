import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ModelClient } from '../llm/client.js';
import { personasCommand } from '../cli/personas.js';
import { leakBattery, runLeakTest } from '../personas/leak-test.js';
import { createSimulatedUser } from '../personas/simulated-user.js';
import { loadDataset } from '../slots/load.js';
import { PERSONAS } from '../slots/schema.js';
import { capture } from './cli-capture.js';
import { leakDataset } from './leak-dataset.js';
import { BAKERY_TASK, exampleCase } from './example-task.js';
import { lastUserText, reply, schemaName, start, type FakeServer, type RecordedRequest } from '../testkit/fake-server.js';

/**
 * The leak test's battery against the LLM user role through the fake OpenAI-compatible server (issue #31):
 * the model's awkward replies (fenced JSON, a reasoning block, a 429) still give scored answers, and errored
 * turns are kept out of every rate and weighed against --max-errored.
 */
const NO_CALL_CACHE = { IWB_LLM_CACHE: 'off' };
let fake: FakeServer;
let dir: string;
/** Two built-in tasks through every persona (test/leak-dataset.ts): the CLI's count of errored turns is per case. */
let small: string;
before(async () => {
  fake = await start();
  dir = await mkdtemp(path.join(os.tmpdir(), 'iwb-leak-llm-'));
  small = await leakDataset(dir);
});
after(async () => {
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

const systemOf = (r: RecordedRequest) => String(r.body.messages[0]?.content ?? '');
const words = (t: string) => new Set(t.toLowerCase().match(/[a-z]{4,}/g) ?? []);

/**
 * A plausible user model: retrieval picks the listed slots sharing a word with the question (in a code fence
 * every other call), the answer says the facts it was given after a reasoning block, containment finds
 * nothing; every fifth request is first refused with a 429.
 */
function plausibleUser(): { limited: () => number } {
  let n = 0;
  let limited = 0;
  fake.script((req) => {
    n += 1;
    if (n % 5 === 0) {
      limited += 1;
      return reply.status(429, 'rate limited', { 'retry-after': '0' });
    }
    const name = schemaName(req);
    if (name === 'health_check') return reply.json({ ok: true, colour: 'red' });
    if (name === 'containment_check') return reply.json({ leaked_slot_ids: [] });
    if (name === 'retrieve_slots') {
      const asked = words(lastUserText(req));
      const ids = [...systemOf(req).matchAll(/^- ([\w.-]+): (.*)$/gm)].filter((m) => [...words(m[2]!)].some((w) => asked.has(w))).map((m) => m[1]!);
      const body = JSON.stringify({ slot_ids: ids.slice(0, 3), asks_for_everything: false });
      return n % 2 === 0 ? reply.text('```json\n' + body + '\n```') : reply.json({ slot_ids: ids.slice(0, 3), asks_for_everything: false });
    }
    const facts = /about the topic asked:\n\n([\s\S]*?)\n\nRules:/.exec(systemOf(req))?.[1] ?? '';
    const said = facts.split('\n').map((l) => l.replace(/^[-*]\s*/, '').trim()).filter(Boolean).join(' ');
    return reply.text(`<think>The developer asks about this; I answer only from my notes.</think>${said || 'No idea, honestly.'}`);
  });
  return { limited: () => limited };
}

const fastClient = () =>
  new ModelClient({ role: 'user', model: 'fake-user', baseURL: fake.baseURL, apiKey: 'k' }, { retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 2, timeoutMs: 5000 }, schemaRetries: 1 });

describe('leak-test battery through the LLM user', () => {
  test('every persona answers the whole battery; fences, reasoning blocks and 429s cost no turn', async () => {
    fake.reset();
    const u = plausibleUser();
    const cases = PERSONAS.map((p) => exampleCase(BAKERY_TASK, p, 'I need a landing page for my bakery, Crumb & Co.'));
    const report = await runLeakTest(cases, (c) => createSimulatedUser(c, { client: fastClient() }));
    assert.ok(u.limited() > 0, 'some requests were rate limited');
    for (const c of cases) {
      const s = report.byPersona[c.persona]!;
      assert.equal(s.errored, 0, c.persona);
      assert.equal(s.questions, leakBattery(c).length, `${c.persona}: every battery question answered`);
      assert.equal(Object.values(s.outcomes).reduce((a, b) => a + b, 0), s.questions);
      assert.ok(s.correctRate > 0, `${c.persona}: some answers right (${JSON.stringify(s.outcomes)})`);
      assert.equal(s.oracleQuotes, 0);
    }
    for (const w of [...report.wrong, ...report.leaks]) assert.ok(!/<think>|```/.test(w.answer), `no reasoning or fence in an answer: ${w.answer}`);
  });
});

describe('iwb personas leak-test --max-errored', () => {
  // The broad question's retrieval gets an unusable reply every time, schema retry too: those turns error, nothing else does.
  const brokenBroad = () =>
    fake.script((req) => {
      const name = schemaName(req);
      if (name === 'health_check') return reply.json({ ok: true, colour: 'red' });
      if (name === 'retrieve_slots') return /anything else/i.test(askedOf(req)) ? reply.text('I cannot help with that.') : reply.json({ slot_ids: [], asks_for_everything: false });
      if (name === 'containment_check') return reply.json({ leaked_slot_ids: [] });
      return reply.text('No idea, honestly.');
    });
  // The question asked, also when the last message is the client's schema retry.
  const askedOf = (req: RecordedRequest) =>
    String(req.body.messages.filter((m) => m.role === 'user' && !String(m.content).startsWith('Your reply did not match')).at(-1)?.content ?? '');
  const env = () => ({ ...NO_CALL_CACHE, IWB_USER_MODEL: 'm', IWB_USER_BASE_URL: fake.baseURL });
  interface Out {
    ok: boolean;
    erroredTurns: number;
    turns: number;
    maxErrored: string | null;
    byPersona: Record<string, { questions: number; errored: number }>;
  }

  test('over the tolerated share: exit 1, naming the share; errored turns are in no rate', async () => {
    fake.reset();
    brokenBroad();
    const io = capture();
    assert.equal(await personasCommand(['leak-test', small, '--json', '--max-errored', '1%'], io, env()), 1, io.errText());
    // Exit 1 is also what a refused preflight gives: the JSON on stdout is what says the battery ran.
    assert.ok(io.outText().trim(), `no JSON on stdout; stderr: ${io.errText()}`);
    const out = JSON.parse(io.outText()) as Out;
    const cases = (await loadDataset(small)).cases;
    assert.equal(out.erroredTurns, cases.length, 'one broad question per case');
    assert.equal(out.turns, cases.reduce((n, c) => n + leakBattery(c).length, 0));
    for (const s of Object.values(out.byPersona)) assert.ok(s.errored > 0 && s.questions > 0);
    assert.equal(Object.values(out.byPersona).reduce((n, s) => n + s.questions, 0), out.turns - out.erroredTurns, 'answered turns alone are the denominator');
    const share = ((out.erroredTurns / out.turns) * 100).toFixed(1);
    assert.match(io.errText(), new RegExp(`${out.erroredTurns} of ${out.turns} turns errored \\(${share.replace('.', '\\.')}%\\), left out of every figure, so the figures lost input: over the 1% tolerated \\(--max-errored 1%\\)`));
  });

  test('under the tolerated share: exit 0, and the output names the tolerance', async () => {
    fake.reset();
    brokenBroad();
    const io = capture();
    assert.equal(await personasCommand(['leak-test', small, '--max-errored', '20%'], io, env()), 0, io.errText());
    assert.match(io.outText() + io.errText(), /\d+ of \d+ turns errored \([\d.]+%\), left out of every figure; within the 20% tolerated \(--max-errored 20%\)/);
  });
});
