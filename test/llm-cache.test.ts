import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { benchModel, BENCH_MODELS } from '../bench/script.js';
import { main } from '../cli/main.js';
import { CallCache, callKey } from '../llm/call-cache.js';
import { ModelClient } from '../llm/client.js';
import { InfraError } from '../llm/errors.js';
import { reply, start, type FakeServer } from '../testkit/fake-server.js';
import type { Report } from '../reporters/report.js';
import { playwright } from './bench-support.js';
import { releaseFile } from '../config/public-data.js';

let fake: FakeServer;
let tmp: string;
before(async () => {
  fake = await start();
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-llm-cache-'));
});
after(async () => {
  await fake?.close();
  await fs.rm(tmp, { recursive: true, force: true });
});
beforeEach(() => fake.reset());

const client = (cache: CallCache, baseURL = fake.baseURL) =>
  new ModelClient({ role: 'judge', model: 'fake-judge', baseURL, apiKey: 'k' }, { cache, retry: { retries: 1, baseDelayMs: 1, maxDelayMs: 5, timeoutMs: 2000 } });
const ask = (c: ModelClient, text = 'Is the header navy at http://127.0.0.1:5173/ ?') => c.chat([{ role: 'user', content: text }]);
const cacheDir = async () => fs.mkdtemp(path.join(tmp, 'calls-'));

describe('the model call cache', () => {
  test('the key ignores the port a site was served on and hashes images; it follows model and sampling', () => {
    const body = (port: number, model = 'm', image = 'data:image/png;base64,AAAA') => ({ model, messages: [{ role: 'user', content: [{ type: 'text', text: `open http://127.0.0.1:${port}/` }, { type: 'image_url', image_url: { url: image } }] }] });
    assert.equal(callKey('http://x/v1', body(5173)), callKey('http://x/v1', body(40211)));
    assert.notEqual(callKey('http://x/v1', body(5173)), callKey('http://x/v1', body(5173, 'other')));
    assert.notEqual(callKey('http://x/v1', body(5173)), callKey('http://x/v1', body(5173, 'm', 'data:image/png;base64,BBBB')));
    assert.notEqual(callKey('http://x/v1', body(5173)), callKey('http://y/v1', body(5173)));
    assert.ok(!JSON.stringify(callKey('http://x/v1', body(1))).includes('AAAA'));
  });

  test('record calls once and then answers from disk; replay never calls and a miss is an InfraError; off always calls', async () => {
    const dir = await cacheDir();
    fake.script(() => reply.text('navy', { usage: { prompt_tokens: 12, completion_tokens: 3 } }));
    const recording = new CallCache('record', dir);
    assert.equal((await ask(client(recording))).content, 'navy');
    assert.equal((await ask(client(recording))).content, 'navy');
    assert.equal(fake.requests.length, 1, 'the second identical request was not sent');
    assert.deepEqual(recording.stats, { hits: 1, misses: 1, stored: 1, corrupt: 0 });

    const replaying = new CallCache('replay', dir);
    const c = client(replaying, 'http://127.0.0.1:9/v1');
    const served = await ask(client(replaying));
    assert.equal(served.content, 'navy');
    assert.deepEqual(served.usage, { prompt: 12, completion: 3 }, 'tokens are those recorded, so a replayed report counts the same');
    const miss = await ask(c, 'Something never asked before').catch((e: unknown) => e);
    assert.ok(miss instanceof InfraError, String(miss));
    assert.match(miss.message, /^\[judge\] IWB_LLM_CACHE=replay: no recorded reply .*"Something never asked before"/);
    assert.equal(fake.requests.length, 1);

    const off = new CallCache('off', dir);
    await ask(client(off));
    assert.equal(fake.requests.length, 2, 'off always calls');
  });

  test('an empty reply is not recorded; a corrupt entry is reported and treated as a miss', async () => {
    const dir = await cacheDir();
    const cache = new CallCache('record', dir);
    fake.script(reply.empty(), reply.text('second try'));
    assert.equal((await ask(client(cache))).content, 'second try');
    assert.equal(cache.stats.stored, 1, 'only the real reply');
    const [shard] = await fs.readdir(dir);
    const [name] = await fs.readdir(path.join(dir, shard!));
    const file = path.join(dir, shard!, name!);
    const entry = JSON.parse(await fs.readFile(file, 'utf8')) as { completion: { choices: Array<{ message: { content: string } }> } };
    entry.completion.choices[0]!.message.content = 'tampered';
    await fs.writeFile(file, JSON.stringify(entry));
    fake.script(() => reply.text('asked again'));
    const fresh = new CallCache('record', dir);
    assert.equal((await ask(client(fresh))).content, 'asked again', 'the tampered entry was not served');
    assert.equal(fresh.stats.corrupt, 1);
    const half = new CallCache('replay', dir);
    await fs.writeFile(file, '{"version":1,"key":');
    assert.ok((await ask(client(half)).catch((e: unknown) => e)) instanceof InfraError, 'a torn entry under replay is errored, not a reply');
  });

  test('iwb cache stats reports entries and the hit rate; prune removes entries by age', async () => {
    const dir = await cacheDir();
    const cache = new CallCache('record', dir);
    fake.script(() => reply.text('ok'));
    await ask(client(cache), 'one');
    await ask(client(cache), 'two');
    await ask(client(cache), 'one');
    await fs.writeFile(path.join(dir, 'stats.jsonl'), JSON.stringify({ ...cache.stats }) + '\n');
    const out: string[] = [];
    const io = { out: (s: string) => void out.push(s), err: (s: string) => void out.push(s) };
    const saved = process.env.IWB_LLM_CACHE_DIR;
    process.env.IWB_LLM_CACHE_DIR = dir;
    try {
      assert.equal(await main(['cache', 'stats', '--json'], io), 0, out.join('\n'));
      const stats = JSON.parse(out.pop()!) as { entries: number; hitRate: number };
      assert.equal(stats.entries, 2);
      assert.equal(stats.hitRate, 1 / 3);
      const shard = (await fs.readdir(dir)).find((d) => /^[0-9a-f]{2}$/.test(d))!;
      const first = path.join(dir, shard, (await fs.readdir(path.join(dir, shard)))[0]!);
      const old = new Date(Date.now() - 40 * 86_400_000);
      await fs.utimes(first, old, old);
      assert.equal(await main(['cache', 'prune', '--older-than', '30d', '--json'], io), 0);
      const pruned = JSON.parse(out.pop()!) as { removed: number; kept: number };
      assert.deepEqual([pruned.removed, pruned.kept], [1, 1]);
      assert.equal(await fs.stat(first).catch(() => null), null);
    } finally {
      if (saved === undefined) delete process.env.IWB_LLM_CACHE_DIR;
      else process.env.IWB_LLM_CACHE_DIR = saved;
    }
  });
});

test('a recorded run replays with the model server gone: the same verdicts and figures, no network', { skip: releaseFile('interactweb-bench', 'all.jsonl', process.env).skip }, async () => {
  const all = await fs.readFile(releaseFile('interactweb-bench', 'all.jsonl', process.env).path, 'utf8');
  const dataset = path.join(tmp, 'two.jsonl');
  await fs.writeFile(dataset, all.split('\n').slice(0, 2).join('\n') + '\n');
  const server = await start();
  server.script(benchModel);
  const calls = path.join(tmp, 'replay-calls');
  const env = (mode: string, baseURL: string) => ({
    IWB_DATASET: dataset,
    IWB_AGENT: 'openai',
    IWB_RUN_DIR: path.join(tmp, 'replay-runs'),
    IWB_REPORT_DIR: path.join(tmp, 'replay-report'),
    IWB_LLM_CACHE: mode,
    IWB_LLM_CACHE_DIR: calls,
    ...Object.fromEntries(Object.entries(BENCH_MODELS).flatMap(([role, model]) => [[`IWB_${role.toUpperCase()}_MODEL`, model], [`IWB_${role.toUpperCase()}_BASE_URL`, baseURL], [`IWB_${role.toUpperCase()}_API_KEY`, 'k']])),
  });
  const args = ['test', '--workers=1', '--reporter=./reporters/iwb-reporter.ts', '--output', path.join(tmp, 'replay-results')];
  const recorded = await playwright(args, env('record', server.baseURL));
  const baseURL = server.baseURL;
  const sent = server.requests.length;
  await server.close();
  assert.ok(sent > 10, `the recording talked to the models: ${sent} requests\n${recorded.output.slice(-2000)}`);
  const first = JSON.parse(await fs.readFile(path.join(tmp, 'replay-report', 'report.json'), 'utf8')) as Report;

  await fs.rm(path.join(tmp, 'replay-runs'), { recursive: true, force: true });
  await fs.rm(path.join(tmp, 'replay-report'), { recursive: true, force: true });
  const replayed = await playwright(args, env('replay', baseURL));
  assert.equal(replayed.status, recorded.status, replayed.output.slice(-3000));
  assert.match(replayed.output, /IWB_LLM_CACHE=replay: no preflight/);
  const second = JSON.parse(await fs.readFile(path.join(tmp, 'replay-report', 'report.json'), 'utf8')) as Report;
  const verdicts = (r: Report) => r.cases.flatMap((c) => c.slots.map((s) => `${c.id}/${s.id}:${s.status}`));
  assert.deepEqual(verdicts(second), verdicts(first), (replayed.output.match(/no recorded reply[^\n]*/g) ?? []).slice(0, 3).join("\n"));
  assert.ok(!verdicts(second).some((v) => v.endsWith(':errored')), 'nothing errored: every call was found');
  assert.equal(second.overall.tcr, first.overall.tcr);
  assert.equal(second.overall.hr, first.overall.hr);
  assert.deepEqual(second.overall.usage, first.overall.usage, 'the same tokens, read from the recording');
  const stats = (await fs.readFile(path.join(calls, 'stats.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { mode: string; misses: number; hits: number });
  const replays = stats.filter((s) => s.mode === 'replay');
  assert.ok(replays.length > 0 && replays.every((s) => s.misses === 0) && replays.some((s) => s.hits > 0), JSON.stringify(stats));
});
