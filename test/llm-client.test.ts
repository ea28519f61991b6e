import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { z } from 'zod';
import { ModelClient, createClients } from '../llm/client.js';
import { InfraError, ModelError, SchemaError } from '../llm/errors.js';
import { reply, start, type FakeServer } from '../testkit/fake-server.js';
import { readRoles } from '../config/roles.js';
import { UsageMeter } from '../llm/usage.js';

let fake: FakeServer;
before(async () => {
  fake = await start();
});
after(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.reset();
});

const FAST = { retries: 2, baseDelayMs: 1, maxDelayMs: 5, timeoutMs: 2000 };
function client(extra: { timeoutMs?: number; retries?: number; meter?: UsageMeter } = {}): ModelClient {
  return new ModelClient(
    { role: 'user', model: 'fake-model', baseURL: fake.baseURL, apiKey: 'k-test', temperature: 0.4, seed: 7 },
    { retry: { ...FAST, ...extra }, schemaRetries: 2, ...(extra.meter ? { meter: extra.meter } : {}) },
  );
}

const Answer = z.object({ answer: z.string(), slots: z.array(z.string()), note: z.string().nullable() });

describe('ModelClient through the real SDK', () => {
  test('plain chat returns content and usage, sends model, key, temperature and seed', async () => {
    fake.script(reply.text('hello there', { usage: { prompt_tokens: 12, completion_tokens: 3 } }));
    const c = client();
    const r = await c.chat([{ role: 'system', content: 'be brief' }, { role: 'user', content: 'hi' }]);
    assert.equal(r.content, 'hello there');
    assert.deepEqual(r.usage, { prompt: 12, completion: 3 });
    assert.equal(r.attempts, 1);
    const req = fake.requests[0]!;
    assert.equal(req.body.model, 'fake-model');
    assert.equal(req.body.temperature, 0.4);
    assert.equal(req.body.seed, 7);
    assert.equal(req.headers.authorization, 'Bearer k-test');
    assert.equal(req.body.messages.length, 2);
    assert.deepEqual(c.usage(), { prompt: 12, completion: 3, calls: 1 });
  });

  test('tool calls come back with id, name and raw arguments; tools are sent as functions', async () => {
    fake.script(reply.tools([{ name: 'ask_user', arguments: { question: 'Which colour?' } }]));
    const r = await client().chat([{ role: 'user', content: 'build it' }], {
      tools: [{ name: 'ask_user', description: 'ask', parameters: { type: 'object', properties: { question: { type: 'string' } } } }],
      toolChoice: 'required',
    });
    assert.equal(r.finishReason, 'tool_calls');
    assert.equal(r.toolCalls.length, 1);
    assert.equal(r.toolCalls[0]!.name, 'ask_user');
    assert.deepEqual(JSON.parse(r.toolCalls[0]!.arguments), { question: 'Which colour?' });
    const body = fake.requests[0]!.body;
    assert.equal(body.tools?.[0]?.function.name, 'ask_user');
    assert.equal(body.tool_choice, 'required');
  });

  test('structured output: a valid reply is parsed; the request carries the json_schema', async () => {
    fake.script(reply.json({ answer: 'blue', slots: ['s1'], note: null }));
    const r = await client().structured([{ role: 'user', content: 'q' }], Answer, 'answer');
    assert.ok(r.ok);
    assert.deepEqual(r.value, { answer: 'blue', slots: ['s1'], note: null });
    const rf = fake.requests[0]!.body.response_format!;
    assert.equal(rf.type, 'json_schema');
    assert.equal(rf.json_schema?.name, 'answer');
  });

  test('structured output: invalid then valid is retried with the validation error fed back', async () => {
    fake.script(reply.json({ answer: 3 }), reply.json({ answer: 'ok', slots: [], note: 'x' }));
    const r = await client().structured([{ role: 'user', content: 'q' }], Answer, 'answer');
    assert.ok(r.ok);
    assert.equal(fake.requests.length, 2);
    assert.equal(r.attempts, 2);
    assert.deepEqual(r.usage, { prompt: 20, completion: 10 });
    const second = fake.requests[1]!.body.messages;
    assert.equal(second.length, 3);
    assert.equal(second[1]!.role, 'assistant');
    assert.equal(second[1]!.content, '{"answer":3}');
    assert.match(String(second[2]!.content), /did not match the required JSON schema "answer"/);
    assert.match(String(second[2]!.content), /answer/);
  });

  test('structured output: always invalid ends in a SchemaError result, never a value', async () => {
    fake.script(() => reply.json({ nope: true }));
    const r = await client().structured([{ role: 'user', content: 'q' }], Answer, 'answer');
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.ok(r.error instanceof SchemaError);
    assert.equal(r.error.kind, 'schema');
    assert.equal(r.error.attempts, 3);
    assert.equal(fake.requests.length, 3);
    assert.equal(r.error.lastContent, '{"nope":true}');
  });

  test('structured output: malformed JSON content and empty content count as schema failures', async () => {
    fake.script(reply.text('{"answer": "cut'), reply.empty(), reply.json({ answer: 'a', slots: [], note: null }));
    const r = await client().structured([{ role: 'user', content: 'q' }], Answer, 'answer');
    assert.ok(r.ok);
    assert.equal(fake.requests.length, 3);
    assert.match(String(fake.requests[1]!.body.messages[2]!.content), /not valid JSON/);
    assert.match(String(fake.requests[2]!.body.messages.at(-1)!.content), /empty/);
  });

  test('a refusal is a ModelError, not a schema failure', async () => {
    fake.script(reply.refusal('I cannot help with that'));
    await assert.rejects(client().structured([{ role: 'user', content: 'q' }], Answer, 'answer'), ModelError);
  });

  test('429 then success is retried', async () => {
    fake.script(reply.status(429, 'slow down'), reply.text('fine'));
    const r = await client().chat([{ role: 'user', content: 'hi' }]);
    assert.equal(r.content, 'fine');
    assert.equal(r.attempts, 2);
    assert.equal(fake.requests.length, 2);
  });

  test('500 forever is an InfraError after the retries', async () => {
    fake.script(() => reply.status(500, 'boom'));
    const err = await client().chat([{ role: 'user', content: 'hi' }]).catch((e: unknown) => e);
    assert.ok(err instanceof InfraError);
    assert.equal(err.kind, 'infra');
    assert.equal(err.attempts, 3);
    assert.equal(err.status, 500);
    assert.equal(fake.requests.length, 3);
  });

  test('a 400 is a ModelError (the request was read and refused) and is not retried', async () => {
    fake.script(reply.status(400, 'context too long'));
    await assert.rejects(client().chat([{ role: 'user', content: 'hi' }]), ModelError);
    assert.equal(fake.requests.length, 1);
  });

  test('a delay beyond the timeout is an InfraError', async () => {
    fake.script(reply.delay(1000, reply.text('late')), reply.delay(1000, reply.text('late')));
    const started = Date.now();
    const err = await client({ timeoutMs: 100, retries: 1 }).chat([{ role: 'user', content: 'hi' }]).catch((e: unknown) => e);
    assert.ok(err instanceof InfraError, String(err));
    assert.match(err.message, /timed out/);
    assert.equal(err.attempts, 2);
    assert.ok(Date.now() - started < 900);
  });

  test('a malformed HTTP body is retried, and is an InfraError when it persists', async () => {
    fake.script(reply.malformed(), reply.text('recovered'));
    const ok = await client().chat([{ role: 'user', content: 'hi' }]);
    assert.equal(ok.content, 'recovered');
    assert.equal(ok.attempts, 2);
    fake.script(reply.malformed(), reply.malformed(), reply.malformed());
    const err = await client().chat([{ role: 'user', content: 'hi' }]).catch((e: unknown) => e);
    assert.ok(err instanceof InfraError, String(err));
    assert.match(err.message, /malformed/);
  });

  test('an empty plain reply is a provider hiccup: resent within the retry policy, then an InfraError', async () => {
    fake.script(reply.empty(), reply.text('there you are'));
    const r = await client().chat([{ role: 'user', content: 'hi' }]);
    assert.equal(r.content, 'there you are');
    assert.equal(r.attempts, 2);
    fake.reset();
    fake.script(() => reply.empty());
    const err = await client().chat([{ role: 'user', content: 'hi' }]).catch((e: unknown) => e);
    assert.ok(err instanceof InfraError, String(err));
    assert.match(err.message, /empty reply 3 time/);
    assert.equal(fake.requests.length, 1 + FAST.retries, 'bounded: the first request and the policy\'s retries');
  });

  test('connection refused is an InfraError', async () => {
    const dead = await start();
    const url = dead.baseURL;
    await dead.close();
    const c = new ModelClient({ role: 'judge', model: 'm', baseURL: url, apiKey: 'k' }, { retry: FAST });
    const err = await c.chat([{ role: 'user', content: 'hi' }]).catch((e: unknown) => e);
    assert.ok(err instanceof InfraError, String(err));
    assert.match(err.message, /^\[judge\] .*connection failed/);
  });

  test('a shared meter totals tokens per role and prices them', async () => {
    const meter = new UsageMeter({ 'fake-model': { promptPerMTok: 1, completionPerMTok: 2 } });
    const clients = createClients(
      {
        user: { role: 'user', model: 'fake-model', baseURL: fake.baseURL, apiKey: 'k' },
        judge: { role: 'judge', model: 'other', baseURL: fake.baseURL, apiKey: 'k' },
      },
      { meter, retry: FAST },
    );
    fake.script(reply.text('a'), reply.text('b'), reply.text('c'));
    await clients.user!.chat([{ role: 'user', content: '1' }]);
    await clients.user!.chat([{ role: 'user', content: '2' }]);
    await clients.judge!.chat([{ role: 'user', content: '3' }]);
    const t = meter.totals();
    assert.deepEqual(t.user, { prompt: 20, completion: 10, calls: 2, costUsd: (20 * 1 + 10 * 2) / 1e6 });
    assert.deepEqual(t.judge, { prompt: 10, completion: 5, calls: 1 });
    assert.equal(clients.agent, undefined);
  });

  test('GET /v1/models answers', async () => {
    const res = await fetch(`${fake.baseURL}/models`);
    assert.equal(res.status, 200);
  });
});

describe('readRoles', () => {
  test('a role is configured only when its model is set; OPENAI_* is the fallback', () => {
    const roles = readRoles({
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
      OPENAI_API_KEY: 'shared',
      IWB_AGENT_MODEL: 'gpt-x',
      IWB_USER_MODEL: 'small',
      IWB_USER_BASE_URL: 'http://localhost:8000/v1',
      IWB_USER_API_KEY: 'own',
      IWB_USER_TEMPERATURE: '0.4',
      IWB_USER_SEED: '3',
    });
    assert.deepEqual(Object.keys(roles).sort(), ['agent', 'user']);
    assert.deepEqual(roles.agent, { role: 'agent', model: 'gpt-x', baseURL: 'http://127.0.0.1:9/v1', apiKey: 'shared', jsonMode: 'auto', timeoutMs: 300_000, maxTokens: 16_384 });
    assert.deepEqual(roles.user, {
      role: 'user',
      model: 'small',
      baseURL: 'http://localhost:8000/v1',
      apiKey: 'own',
      temperature: 0.4,
      seed: 3,
      jsonMode: 'auto',
      timeoutMs: 120_000,
      maxTokens: 1_024,
    });
  });

  test('per-role structured-output mode, timeout and max_tokens', () => {
    const r = readRoles({ OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', IWB_USER_MODEL: 'm', IWB_USER_JSON_MODE: 'json_object', IWB_USER_TIMEOUT_MS: '5000', IWB_USER_MAX_TOKENS: '300' });
    assert.equal(r.user?.jsonMode, 'json_object');
    assert.equal(r.user?.timeoutMs, 5000);
    assert.equal(r.user?.maxTokens, 300);
    assert.throws(() => readRoles({ OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', IWB_JUDGE_MODEL: 'm', IWB_JUDGE_JSON_MODE: 'xml' }), /IWB_JUDGE_JSON_MODE/);
  });

  test('bad values name the variable', () => {
    assert.throws(() => readRoles({ IWB_JUDGE_MODEL: 'm', OPENAI_API_KEY: 'k', IWB_JUDGE_TEMPERATURE: 'hot' }), /IWB_JUDGE_TEMPERATURE/);
    assert.throws(() => readRoles({ IWB_JUDGE_MODEL: 'm', OPENAI_API_KEY: 'k', IWB_JUDGE_SEED: '1.5' }), /IWB_JUDGE_SEED/);
    assert.throws(() => readRoles({ IWB_COPILOT_MODEL: 'm', OPENAI_BASE_URL: 'not a url' }), /OPENAI_BASE_URL/);
    assert.throws(() => readRoles({ IWB_OPERATOR_MODEL: 'm' }), /IWB_OPERATOR_API_KEY/);
  });

  test('no variables, no roles; a local endpoint needs no key', () => {
    assert.deepEqual(readRoles({}), {});
    const r = readRoles({ IWB_USER_MODEL: 'm', OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' });
    assert.equal(r.user?.apiKey, 'not-needed');
  });
});
