import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, beforeEach, test } from 'node:test';
import { ModelClient } from '../llm/client.js';
import { reply, start, type FakeServer } from '../testkit/fake-server.js';
import { readLimits } from '../config/role-limits.js';
import { ROOT } from './bench-support.js';

let fake: FakeServer;
let tmp: string;
before(async () => {
  fake = await start();
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-llm-limits-'));
});
after(async () => {
  await fake.close();
  await fs.rm(tmp, { recursive: true, force: true });
});
beforeEach(() => fake.reset());

const FAST = { retries: 2, baseDelayMs: 1, maxDelayMs: 5000, timeoutMs: 5000 };

test('IWB_<ROLE>_CONCURRENCY: at most N requests of a role in flight at once', async () => {
  const arrivals: number[] = [];
  fake.script(() => {
    arrivals.push(Date.now());
    return reply.delay(300, reply.text('ok'));
  });
  const limits = readLimits({ IWB_USER_CONCURRENCY: '2' }, tmp);
  const c = new ModelClient({ role: 'user', model: 'm', baseURL: fake.baseURL, apiKey: 'k' }, { retry: FAST, limits });
  await Promise.all([1, 2, 3, 4, 5].map((n) => c.chat([{ role: 'user', content: `q${n}` }])));
  const t = arrivals.map((a) => a - arrivals[0]!);
  assert.equal(t.length, 5);
  assert.ok(t[1]! < 150 && t[2]! >= 250 && t[4]! >= 550, `two at a time: ${t.join(', ')} ms`);
  assert.throws(() => readLimits({ IWB_JUDGE_RPM: '0' }), /IWB_JUDGE_RPM: must be a positive integer/);
});

test('IWB_<ROLE>_RPM is shared by two processes through the run folder', async () => {
  const dir = path.join(tmp, 'rate');
  // 240 a minute = one every 250 ms, whichever process asks.
  const script = `import { takeTurn } from './llm/limits.ts'; for (let i = 0; i < 4; i++) { await takeTurn(${JSON.stringify(dir)}, 'judge-x', 240); console.log(Date.now()); }`;
  const run = () =>
    new Promise<number[]>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      child.on('close', (code) => (code === 0 ? resolve(out.trim().split('\n').map(Number)) : reject(new Error(out))));
    });
  const [a, b] = await Promise.all([run(), run()]);
  const all = [...a, ...b].sort((x, y) => x - y);
  const gaps = all.slice(1).map((t, i) => t - all[i]!);
  assert.equal(all.length, 8);
  assert.ok(Math.min(...gaps) >= 200, `8 requests from 2 processes at least ~250 ms apart: gaps ${gaps.join(', ')} ms`);
  console.log(`2 processes x 4 requests at 240/min: gaps ${gaps.join(', ')} ms, span ${all.at(-1)! - all[0]!} ms`);
});

test('429 with Retry-After is honoured: the retry waits the time the server asked for', async () => {
  const at: number[] = [];
  fake.script(() => {
    at.push(Date.now());
    return at.length === 1 ? reply.status(429, 'slow down', { 'retry-after': '1' }) : reply.text('ok');
  });
  const c = new ModelClient({ role: 'judge', model: 'm', baseURL: fake.baseURL, apiKey: 'k' }, { retry: FAST });
  const r = await c.chat([{ role: 'user', content: 'hi' }]);
  assert.equal(r.content, 'ok');
  assert.equal(r.attempts, 2);
  const gap = at[1]! - at[0]!;
  assert.ok(gap >= 950, `waited ${gap} ms for Retry-After: 1`);
});
