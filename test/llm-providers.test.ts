import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { LlmSession } from '../agent/builtin/llm-session.js';
import { loadPrompts } from '../agent/builtin/prompts.js';
import { ModelClient } from '../llm/client.js';
import { InfraError } from '../llm/errors.js';
import { reply, schemaName, start, type FakeServer } from '../testkit/fake-server.js';
import { checkRole, preflight } from '../llm/preflight.js';
import type { Role, RoleConfig } from '../config/roles.js';
import { forgetModes } from '../llm/structured-mode.js';
import { readReply } from '../llm/tolerant.js';
import { z } from 'zod';
import { BAKERY_TASK, exampleCase } from './example-task.js';
import { createSimulatedUser } from '../personas/simulated-user.js';

/**
 * Each quirk of a real provider, met end to end by the role that meets it in a run, through the real SDK
 * and the fake server. The provider each quirk comes from is named in the test.
 */
let fake: FakeServer;
before(async () => {
  fake = await start();
});
after(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.reset();
  fake.quirks({});
  forgetModes();
});

const config = (role: Role, extra: Partial<RoleConfig> = {}): RoleConfig => ({ role, model: 'fake-model', baseURL: fake.baseURL, apiKey: 'k', ...extra });
const client = (role: Role, extra: Partial<RoleConfig> = {}) =>
  new ModelClient(config(role, extra), { retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 2, timeoutMs: 2000, ...(extra.timeoutMs ? { timeoutMs: extra.timeoutMs } : {}) }, schemaRetries: 1 });
const Retrieval = z.object({ slot_ids: z.array(z.string()), asks_for_everything: z.boolean() });
const minCase = () => exampleCase(BAKERY_TASK, 'P-MIN', 'Make me a bakery landing page.', { omits: BAKERY_TASK.slots.map((s) => s.id), blurs: [], contradicts: [] });

/** The user model: retrieval and containment are structured, the answer is plain text. */
function userModel() {
  fake.script((req) => {
    const name = schemaName(req);
    if (name === 'retrieve_slots') return reply.json({ slot_ids: ['header-colour'], asks_for_everything: false });
    if (name === 'containment_check') return reply.json({ leaked_slot_ids: [] });
    return reply.text('Navy blue, like the night sky.');
  });
}

describe('provider quirks, end to end through the role that meets them', () => {
  test('DeepSeek: json_schema refused with 400, the user role falls back to json_object once for the whole run', async () => {
    fake.quirks({ refuseJsonSchema: true });
    userModel();
    const user = createSimulatedUser(minCase(), { client: client('user') });
    for (let i = 0; i < 3; i++) {
      const t = await user.answer('What colour should the header be?');
      assert.equal(t.error, undefined, t.error);
      assert.equal(t.answer, 'Navy blue, like the night sky.');
      assert.equal(t.refused, false);
    }
    const schemaRequests = fake.requests.filter((r) => r.body.response_format?.type === 'json_schema');
    assert.equal(schemaRequests.length, 1, 'one fallback per endpoint and model, not one per call');
    const objectRequests = fake.requests.filter((r) => r.body.response_format?.type === 'json_object');
    assert.equal(objectRequests.length, 6, 'retrieval and containment of three turns');
    assert.match(String(objectRequests[0]!.body.messages[0]!.content), /JSON Schema \("retrieve_slots"\)/, 'the schema travels in the prompt');
  });

  test('a server that takes no response_format at all: prompt mode', async () => {
    fake.quirks({ refuseResponseFormat: true });
    userModel();
    const t = await createSimulatedUser(minCase(), { client: client('user') }).answer('What colour should the header be?');
    assert.equal(t.error, undefined, t.error);
    assert.equal(client('user').structuredMode(), 'prompt');
  });

  test('Qwen3 behind vLLM/Ollama: think blocks and ```json fences around every reply still validate', async () => {
    fake.quirks({ thinkBlock: 'The user asks about the header. {not json} Let me pick slots.', fenceJson: true });
    userModel();
    const t = await createSimulatedUser(minCase(), { client: client('user') }).answer('What colour should the header be?');
    assert.equal(t.error, undefined, t.error);
    assert.deepEqual(t.retrievedSlotIds, ['header-colour']);
    assert.equal(t.answer, 'Navy blue, like the night sky.', 'the think block is kept out of what the agent hears');
  });

  test('DeepSeek R1: reasoning_content is set aside and kept; no usage object (Ollama) is unknown usage, not zero and not a crash', async () => {
    fake.quirks({ reasoningContent: 'thinking about the schema', noUsage: true });
    fake.script(reply.json({ slot_ids: ['header-colour'], asks_for_everything: false }));
    const r = await client('user').structured([{ role: 'user', content: 'q' }], Retrieval, 'retrieve_slots');
    assert.ok(r.ok);
    assert.equal(r.reasoning, 'thinking about the schema');
    assert.deepEqual(r.usage, { prompt: 0, completion: 0, unknown: true });
  });

  test('older Ollama: tool-call arguments as an object are read by the openai agent', async () => {
    fake.quirks({ toolArgsAsObject: true });
    fake.script(reply.tools([{ name: 'clarify', arguments: { question: 'What is the bakery called?' } }]));
    const session = new LlmSession({ client: client('agent'), protocol: 'tools', prompts: loadPrompts('tools') });
    const d = await session.next({ type: 'start', instruction: 'Make me a bakery page.', stepsLeft: 10 });
    assert.ok('action' in d, JSON.stringify(d));
    assert.deepEqual(d.action, { type: 'clarify', question: 'What is the bakery called?' });
  });

  test('llama.cpp text-only model: an image gets HTTP 500 "image input is not supported", which is not retried', async () => {
    fake.quirks({ refuseImages: 'llama.cpp' });
    const err = await client('copilot')
      .chat([{ role: 'user', content: [{ type: 'text', text: 'describe' }, { type: 'image', url: 'data:image/png;base64,AA==' }] }])
      .catch((e: unknown) => e);
    assert.ok(err instanceof InfraError);
    assert.equal(fake.requests.length, 1, 'a capability refusal is not transient');
  });

  test('vLLM and llama.cpp text-only judges fail the preflight, naming the variable and the fix', async () => {
    for (const provider of ['vllm', 'llama.cpp'] as const) {
      fake.reset();
      fake.quirks({ refuseImages: provider });
      fake.script(() => reply.json({ ok: true, colour: 'red' }));
      const check = await checkRole(config('judge'), { structured: true, tools: false, images: true });
      assert.equal(check.ok, false, provider);
      assert.equal(check.images, false);
      assert.equal(check.structuredOutput, 'json_schema');
      assert.match(check.problems.join('\n'), /IWB_JUDGE_MODEL to a model that takes images/);
      const agent = await checkRole(config('agent'), { structured: false, tools: false, images: true });
      assert.match(agent.problems.join('\n'), /set IWB_COPILOT_MODEL/, 'a text-only agent is told about the copilot');
    }
  });

  test('preflight: a bad key, an unknown model and an endpoint that is down each name their variable', async () => {
    fake.quirks({ apiKey: 'right', models: ['served-model'] });
    fake.script(() => reply.text('OK'));
    const badKey = await checkRole(config('user', { apiKey: 'wrong' }), { structured: false, tools: false, images: false });
    assert.match(badKey.problems.join('\n'), /refused the key.*IWB_USER_API_KEY/);
    const unknown = await checkRole(config('user', { apiKey: 'right', model: 'nope' }), { structured: false, tools: false, images: false });
    assert.match(unknown.problems.join('\n'), /does not know model "nope".*IWB_USER_MODEL/);
    const down = await preflight({ judge: config('judge', { baseURL: 'http://127.0.0.1:9/v1' }) }, { judge: { structured: true, tools: false, images: true } });
    assert.equal(down.ok, false);
    assert.match(down.roles[0]!.problems.join('\n'), /cannot be reached.*IWB_JUDGE_BASE_URL/);
  });

  test('preflight of a DeepSeek-like endpoint finds json_object, and a model without tool calling is told to use openai:artifact', async () => {
    fake.quirks({ refuseJsonSchema: true, refuseTools: true });
    fake.script(() => reply.json({ ok: true, colour: 'red' }));
    const r = await preflight({ user: config('user'), agent: config('agent', { model: 'fake-model' }) }, { user: { structured: true, tools: false, images: false }, agent: { structured: false, tools: true, images: false } });
    const user = r.roles.find((x) => x.role === 'user')!;
    assert.equal(user.ok, true, user.problems.join('\n'));
    assert.equal(user.structuredOutput, 'json_object');
    const agent = r.roles.find((x) => x.role === 'agent')!;
    assert.equal(agent.tools, false);
    assert.match(agent.problems.join('\n'), /IWB_AGENT=openai:artifact/);
  });

  test('slow local server (llama.cpp): a request past the role timeout is resent once, not three times', async () => {
    fake.quirks({ slowReply: 400 });
    fake.script(() => reply.text('late'));
    const err = await client('agent', { timeoutMs: 150 }).chat([{ role: 'user', content: 'hi' }]).catch((e: unknown) => e);
    assert.ok(err instanceof InfraError);
    assert.match(err.message, /timed out/);
    assert.equal(fake.requests.length, 2);
  });

  test('a reply cut at max_tokens is asked again once with a higher limit; the role sends its max_tokens', async () => {
    fake.script(reply.text('{"slot_ids": ["hea', { finishReason: 'length' }), reply.json({ slot_ids: ['header-colour'], asks_for_everything: false }));
    const r = await client('user', { maxTokens: 100 }).structured([{ role: 'user', content: 'q' }], Retrieval, 'retrieve_slots');
    assert.ok(r.ok);
    assert.deepEqual(fake.requests.map((q) => q.body.max_tokens), [100, 200]);
  });
});

test('iwb doctor --json: one row per configured role, exit 1 when one cannot do its part', async () => {
  const { doctorCommand } = await import('../cli/doctor.js');
  fake.reset();
  fake.quirks({ refuseJsonSchema: true, refuseImages: 'llama.cpp' });
  fake.script(() => reply.json({ ok: true, colour: 'red' }));
  const out: string[] = [];
  const io = { out: (t: string) => out.push(t), err: () => undefined };
  const code = await doctorCommand(['--json'], io, { OPENAI_BASE_URL: fake.baseURL, IWB_USER_MODEL: 'deepseek-chat', IWB_JUDGE_MODEL: 'text-only' });
  const r = JSON.parse(out.join('')) as { ok: boolean; roles: Array<{ role: string; ok: boolean; structuredOutput: string | null; images: boolean | null; problems: string[] }> };
  assert.equal(code, 1);
  assert.equal(r.ok, false);
  assert.deepEqual(r.roles.map((x) => [x.role, x.ok, x.structuredOutput]), [['user', true, 'json_object'], ['judge', false, 'json_object']]);
  assert.equal(r.roles[1]!.images, false);
  fake.quirks({});
});

test('iwb doctor names the browser a run would use', async () => {
  const { doctorCommand } = await import('../cli/doctor.js');
  const run = async (env: NodeJS.ProcessEnv) => {
    const out: string[] = [];
    const code = await doctorCommand(['--json'], { out: (t: string) => out.push(t), err: () => undefined }, env);
    return { code, r: JSON.parse(out.join('')) as { ok: boolean; browser: { path: string; source: string } | null } };
  };
  const found = await run({ IWB_CHROMIUM: process.execPath });
  assert.deepEqual([found.code, found.r.ok, found.r.browser], [0, true, { path: process.execPath, source: 'IWB_CHROMIUM' }]);
});

test('tolerant reading: think block, fence, prose around the object, and braces inside strings', () => {
  assert.deepEqual(readReply('<think>x {y}</think>\n```json\n{"a": 1}\n```'), { json: '{"a": 1}', reasoning: 'x {y}' });
  assert.equal(readReply('Sure! Here it is: {"a": "}{", "b": [1]} Hope that helps.').json, '{"a": "}{", "b": [1]}');
  assert.equal(readReply('no json here').json, 'no json here');
  assert.deepEqual(readReply('<think>cut off before the end'), { json: '', reasoning: 'cut off before the end' });
});
