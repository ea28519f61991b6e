import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import { z } from 'zod';
import { ModelClient } from '../llm/client.js';
import { InfraError } from '../llm/errors.js';
import { checkRole } from '../llm/preflight.js';
import { withTable } from '../cli/docs.js';
import { quirksMarkdown } from '../llm/quirk-docs.js';
import { QUIRK_NAMES, QUIRKS, type QuirkName } from '../llm/quirks.js';
import type { RoleConfig } from '../config/roles.js';
import { forgetModes } from '../llm/structured-mode.js';
import { splitReasoning } from '../llm/tolerant.js';
import { FAKE_QUIRK_NAMES } from '../testkit/fake-quirks.js';
import { reply, start, type FakeServer } from '../testkit/fake-server.js';

/**
 * The provider-quirk table (llm/quirks.ts) against what reads it: every row is offered by the fake server under
 * its name, names a function that exists, appears in docs/providers.md, and is met end to end through the real
 * SDK by a scenario below (a row without one does not compile).
 */
const ROOT = path.resolve(import.meta.dirname, '..');

let fake: FakeServer;
before(async () => {
  fake = await start();
});
after(async () => {
  await fake.close();
});
afterEach(() => {
  fake.reset();
  fake.quirks({});
  forgetModes();
});

const config = (extra: Partial<RoleConfig> = {}): RoleConfig => ({ role: 'user', model: 'fake-model', baseURL: fake.baseURL, apiKey: 'k', ...extra });
const client = (extra: Partial<RoleConfig> = {}) =>
  new ModelClient(config(extra), { retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 500, timeoutMs: extra.timeoutMs ?? 2000 }, schemaRetries: 1 });
const Ok = z.object({ ok: z.boolean() });
const say = (text: string) => fake.script(() => reply.text(text));
const hello = () => client().chat([{ role: 'user', content: 'hi' }]);

/** One end-to-end meeting per row: the quirk set on the fake, the client's answer asserted. */
const SCENARIOS: Record<QuirkName, () => Promise<void>> = {
  async refuseJsonSchema() {
    fake.quirks({ refuseJsonSchema: true });
    fake.script(() => reply.json({ ok: true }));
    const r = await client().structured([{ role: 'user', content: 'q' }], Ok, 'ok_check');
    assert.ok(r.ok && r.mode === 'json_object', JSON.stringify(r));
    assert.deepEqual(fake.requests.map((q) => q.body.response_format?.type), ['json_schema', 'json_object']);
  },
  async refuseResponseFormat() {
    fake.quirks({ refuseResponseFormat: true });
    fake.script(() => reply.json({ ok: true }));
    const r = await client().structured([{ role: 'user', content: 'q' }], Ok, 'ok_check');
    assert.ok(r.ok && r.mode === 'prompt', JSON.stringify(r));
    assert.deepEqual(fake.requests.map((q) => q.body.response_format?.type), ['json_schema', 'json_object', undefined]);
  },
  async refuseImages() {
    fake.quirks({ refuseImages: 'llama.cpp' });
    const err = await client()
      .chat([{ role: 'user', content: [{ type: 'text', text: 'describe' }, { type: 'image', url: 'data:image/png;base64,AA==' }] }])
      .catch((e: unknown) => e);
    assert.ok(err instanceof InfraError && err.status === 500, String(err));
    assert.equal(fake.requests.length, 1, 'a 500 that names image input is not retried');
  },
  async refuseTools() {
    fake.quirks({ refuseTools: true });
    say('OK');
    const check = await checkRole(config({ role: 'agent' }), { structured: false, tools: true, images: false });
    assert.equal(check.tools, false);
    assert.match(check.problems.join('\n'), /IWB_AGENT=openai:artifact/);
  },
  async fenceJson() {
    fake.quirks({ fenceJson: true });
    fake.script(() => reply.json({ ok: true }));
    const r = await client().structured([{ role: 'user', content: 'q' }], Ok, 'ok_check');
    assert.ok(r.ok, JSON.stringify(r));
    assert.match(r.raw, /```json/, 'the fake did fence it');
    assert.equal(fake.requests.length, 1, 'a fenced reply is read, not sent back');
  },
  async thinkBlock() {
    fake.quirks({ thinkBlock: 'Which greeting?' });
    say('hello');
    const r = await hello();
    assert.deepEqual([r.content, r.reasoning], ['hello', 'Which greeting?']);
  },
  async thinkWithoutOpening() {
    fake.quirks({ thinkWithoutOpening: 'Which greeting?' });
    say('hello');
    const r = await hello();
    assert.deepEqual([r.content, r.reasoning], ['hello', 'Which greeting?']);
  },
  async reasoningContent() {
    fake.quirks({ reasoningContent: 'Which greeting?' });
    say('hello');
    const r = await hello();
    assert.deepEqual([r.content, r.reasoning], ['hello', 'Which greeting?']);
  },
  async noUsage() {
    fake.quirks({ noUsage: true });
    say('hello');
    assert.deepEqual((await hello()).usage, { prompt: 0, completion: 0, unknown: true });
  },
  async toolArgsAsObject() {
    fake.quirks({ toolArgsAsObject: true });
    fake.script(() => reply.tools([{ name: 'clarify', arguments: { question: 'Which colour?' } }]));
    const r = await client().chat([{ role: 'user', content: 'hi' }], { tools: [{ name: 'clarify', description: 'ask', parameters: { type: 'object' } }] });
    assert.deepEqual(r.toolCalls.map((c) => [c.name, c.arguments]), [['clarify', '{"question":"Which colour?"}']]);
  },
  async rateLimited() {
    fake.quirks({ rateLimited: { times: 1, headers: { 'retry-after-ms': '150' } } });
    say('hello');
    const t0 = Date.now();
    assert.equal((await hello()).content, 'hello');
    assert.ok(Date.now() - t0 >= 140, `waited ${Date.now() - t0} ms for retry-after-ms: 150`);
    fake.reset();
    fake.quirks({ rateLimited: { times: 1 } });
    say('hello');
    const without = await hello();
    assert.deepEqual([without.content, without.attempts], ['hello', 2], 'without a header: the backoff, then the reply');
    fake.quirks({ rateLimited: { times: 9 } });
    const err = await hello().catch((e: unknown) => e);
    assert.ok(err instanceof InfraError && err.status === 429 && err.attempts === 3, String(err));
  },
  async overloaded() {
    fake.quirks({ overloaded: { times: 2 } });
    say('hello');
    const r = await hello();
    assert.deepEqual([r.content, r.attempts], ['hello', 3]);
  },
  async slowReply() {
    fake.quirks({ slowReply: 400 });
    say('late');
    const err = await client({ timeoutMs: 150 })
      .chat([{ role: 'user', content: 'hi' }])
      .catch((e: unknown) => e);
    assert.ok(err instanceof InfraError && /timed out/.test(err.message), String(err));
    assert.equal(fake.requests.length, QUIRKS.slowReply.maxTimeouts);
  },
  async malformedBody() {
    fake.quirks({ malformedBody: 1 });
    say('hello');
    const r = await hello();
    assert.deepEqual([r.content, r.attempts], ['hello', 2]);
  },
  async noChoices() {
    fake.quirks({ noChoices: 1 });
    say('hello');
    const r = await hello();
    assert.deepEqual([r.content, r.attempts], ['hello', 2]);
  },
  async emptyReply() {
    fake.quirks({ emptyReply: 1 });
    say('hello');
    const r = await hello();
    assert.equal(r.content, 'hello');
    assert.equal(fake.requests.length, 2);
  },
};

describe('every provider quirk, met end to end', () => {
  for (const name of QUIRK_NAMES) test(name, SCENARIOS[name]);
});

test('the fake server offers exactly the rows of the quirk table, by name', () => {
  assert.deepEqual(FAKE_QUIRK_NAMES, QUIRK_NAMES);
});

test('each row names a function its file exports (or a method of an exported class)', async () => {
  for (const name of QUIRK_NAMES) {
    const [file, ref] = QUIRKS[name].handledBy.split('#') as [string, string];
    const mod = (await import(path.join(ROOT, file.replace(/\.ts$/, '.js')))) as Record<string, unknown>;
    const [outer, method] = ref.split('.') as [string, string | undefined];
    const found = mod[outer];
    const fn = method === undefined ? found : typeof found === 'function' ? (found.prototype as Record<string, unknown>)[method] : undefined;
    assert.equal(typeof fn, 'function', `${name}: ${QUIRKS[name].handledBy} is not a function`);
  }
});

test('docs/providers.md carries the generated table unchanged (run `npx iwb docs providers --write` after editing a row)', async () => {
  const page = await fs.readFile(path.join(ROOT, 'docs/providers.md'), 'utf8');
  assert.equal(withTable(page, 'providers', quirksMarkdown()), page);
  for (const name of QUIRK_NAMES) assert.ok(page.includes(`\`${name}\``), name);
});

test('splitReasoning: leading reasoning for the client, every block for the paper reader', () => {
  assert.deepEqual(splitReasoning('<think>a</think>\n\nHello <think>b</think> there'), { text: 'Hello <think>b</think> there', reasoning: 'a' });
  assert.deepEqual(splitReasoning('<think>a</think>\n\nHello <think>b</think> there', 'all'), { text: 'Hello   there', reasoning: 'a\n\nb' });
  assert.deepEqual(splitReasoning('mid-thought</think>\nHello'), { text: 'Hello', reasoning: 'mid-thought' });
  assert.deepEqual(splitReasoning('<thinking>cut before the end'), { text: '', reasoning: 'cut before the end' });
  assert.deepEqual(splitReasoning('  no reasoning  '), { text: '  no reasoning  ' });
  assert.deepEqual(splitReasoning('<think></think>Hello'), { text: 'Hello' }, 'an empty block is no reasoning');
});
