import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { z } from 'zod';
import { requestKey } from '../llm/cache.js';
import { entryPath, readLlmCache, STATS_FILE, type LlmCacheConfig } from '../llm/cache-store.js';
import { ModelClient } from '../llm/client.js';
import { InfraError } from '../llm/errors.js';
import { reply, start, type FakeServer } from '../llm/fake-server.js';
import { forgetModes } from '../llm/structured-mode.js';

let fake: FakeServer;
let tmp: string;
before(async () => {
  fake = await start();
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-llm-cache-'));
});
after(async () => {
  await fake.close();
  await fs.rm(tmp, { recursive: true, force: true });
});
beforeEach(() => {
  fake.reset();
  forgetModes();
});

const FAST = { retries: 2, baseDelayMs: 1, maxDelayMs: 5, timeoutMs: 2000 };
let dirs = 0;
function cacheAt(mode: LlmCacheConfig['mode'], warnings: string[] = []): LlmCacheConfig {
  return { mode, dir: path.join(tmp, `c${dirs}`), warn: (m) => warnings.push(m) };
}
function client(cache: LlmCacheConfig, model = 'fake-model'): ModelClient {
  return new ModelClient({ role: 'judge', model, baseURL: fake.baseURL, apiKey: 'k', temperature: 0 }, { retry: FAST, cache });
}
const hi = [{ role: 'user' as const, content: 'Describe the landing page of the bakery site please' }];

describe('model-call cache', () => {
  beforeEach(() => {
    dirs += 1;
  });

  test('record: a miss calls and stores, the same request then hits with zero requests and the same reply and tokens', async () => {
    fake.script(reply.text('a bakery', { usage: { prompt_tokens: 40, completion_tokens: 4 } }));
    const first = await client(cacheAt('record')).chat(hi);
    assert.equal(fake.requests.length, 1);
    const second = client(cacheAt('record'));
    const again = await second.chat(hi);
    assert.equal(fake.requests.length, 1, 'the second call was served from the cache');
    assert.equal(again.content, first.content);
    assert.deepEqual(again.usage, { prompt: 40, completion: 4 });
    assert.deepEqual(second.usage(), { prompt: 40, completion: 4, calls: 1 }, 'a hit still counts its tokens, so report figures match');
    assert.equal(again.latencyMs, first.latencyMs, 'the recorded latency is replayed');
    const stats = (await fs.readFile(path.join(cacheAt('record').dir, STATS_FILE), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { hit: boolean });
    assert.deepEqual(stats.map((s) => s.hit), [false, true]);
  });

  test('the key changes with model, sampling and max_tokens, and images count by their hash', async () => {
    fake.script(reply.text('one'), reply.text('two'), reply.text('three'));
    const c = cacheAt('record');
    await client(c).chat(hi);
    await client(c, 'other-model').chat(hi);
    await client(c).chat(hi, { maxTokens: 77 });
    assert.equal(fake.requests.length, 3, 'each differs from the others, so each is a miss');
    const img = (x: string) => ({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${x}` } }] }] });
    assert.notEqual(requestKey('http://h/v1', img('AAAA')), requestKey('http://h/v1', img('AAAB')));
    const fenced = (n: string) => ({ messages: [{ role: 'user', content: `<<<BEGIN UNTRUSTED PAGE CONTENT ${n}>>>\nhi\n<<<END UNTRUSTED PAGE CONTENT ${n}>>>` }] });
    assert.equal(requestKey('http://h/v1', fenced('0a1b2c3d4e5f')), requestKey('http://h/v1', fenced('ffeeddccbbaa')), 'a fence nonce is not part of the request');
    assert.equal(requestKey('http://h/v1/', { a: 1, b: 2 }), requestKey('http://h/v1', { b: 2, a: 1 }), 'field order and a trailing slash do not matter');
  });

  test('replay: a hit needs no server; a miss is an InfraError naming the role and the first words', async () => {
    fake.script(reply.text('recorded'));
    await client(cacheAt('record')).chat(hi);
    fake.reset();
    const r = await client(cacheAt('replay')).chat(hi);
    assert.equal(r.content, 'recorded');
    await assert.rejects(
      client(cacheAt('replay')).chat([{ role: 'user', content: 'Something never asked before in this run' }]),
      (e: Error) => e instanceof InfraError && /^\[judge\] replay: no recorded reply for the request "Something never asked before in this run"/.test(e.message),
    );
    assert.equal(fake.requests.length, 0, 'replay made no request at all');
  });

  test('off: every call goes to the server and nothing is stored', async () => {
    fake.script(reply.text('x'), reply.text('y'));
    const c = cacheAt('off');
    await client(c).chat(hi);
    const r = await client(c).chat(hi);
    assert.equal(r.content, 'y');
    assert.equal(fake.requests.length, 2);
    await assert.rejects(fs.stat(c.dir));
  });

  test('a corrupt entry is reported by file name and is a miss; under replay it is errored', async () => {
    fake.script(reply.text('good'), reply.text('fresh'));
    const warnings: string[] = [];
    const c = cacheAt('record', warnings);
    await client(c).chat(hi);
    const file = entryPath(c.dir, requestKey(fake.baseURL, fake.requests[0]!.body));
    const entry = JSON.parse(await fs.readFile(file, 'utf8')) as { outcome: { completion: { choices: Array<{ message: { content: string } }> } } };
    entry.outcome.completion.choices[0]!.message.content = 'tampered';
    await fs.writeFile(file, JSON.stringify(entry));
    await assert.rejects(client(cacheAt('replay', warnings)).chat(hi), (e: Error) => e instanceof InfraError && /entry is corrupt/.test(e.message));
    assert.match(warnings[0]!, new RegExp(`corrupt entry ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: checksum mismatch`));
    const r = await client(c).chat(hi);
    assert.equal(r.content, 'fresh', 'record mode calls again on a corrupt entry and overwrites it');
    assert.equal(fake.requests.length, 2);
    assert.equal((await client(cacheAt('replay')).chat(hi)).content, 'fresh');
  });

  test('structured mode fallback is replayed: the recorded refusal steps down the same way with zero requests', async () => {
    const Verdict = z.object({ pass: z.boolean() });
    fake.script(reply.status(400, 'response_format json_schema is not supported'), reply.json({ pass: true }));
    const recorded = await client(cacheAt('record')).structured(hi, Verdict, 'verdict');
    assert.equal(fake.requests.length, 2);
    assert.ok(recorded.ok);
    forgetModes();
    fake.reset();
    const replayed = await client(cacheAt('replay')).structured(hi, Verdict, 'verdict');
    assert.ok(replayed.ok);
    assert.equal(replayed.mode, recorded.mode);
    assert.deepEqual(replayed.value, { pass: true });
    assert.equal(fake.requests.length, 0);
  });

  test('IWB_LLM_CACHE and IWB_LLM_CACHE_DIR: default record beside the run folder; a bad mode names the variable', () => {
    assert.deepEqual(readLlmCache({}, '/x/runs'), { mode: 'record', dir: '/x/llm-cache' });
    assert.equal(readLlmCache({ IWB_LLM_CACHE: 'replay', IWB_LLM_CACHE_DIR: '/c' }).dir, '/c');
    assert.throws(() => readLlmCache({ IWB_LLM_CACHE: 'replya' }), /IWB_LLM_CACHE: must be one of record, replay, off/);
  });
});
