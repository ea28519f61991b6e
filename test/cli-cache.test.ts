import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { main } from '../cli/main.js';
import { store, STATS_FILE } from '../llm/cache-store.js';

const key = (n: number) => n.toString(16).padStart(64, '0');

test('iwb cache stats counts entries, size and hit rate per run; prune removes entries older than the age', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-cli-cache-'));
  process.env.IWB_LLM_CACHE_DIR = dir;
  try {
    const config = { mode: 'record' as const, dir };
    for (const n of [1, 2, 3]) {
      await store(config, { version: 1, key: key(n), role: 'judge', model: 'm', outcome: { kind: 'completion', completion: { choices: [{}] } }, tokens: { prompt: 1, completion: 1 }, latencyMs: 5, attempts: 1, time: new Date().toISOString() });
    }
    const lines = [
      { run: 'r1', hit: false }, { run: 'r1', hit: false }, { run: 'r2', hit: true }, { run: 'r2', hit: true }, { run: 'r2', hit: false },
    ].map((l) => JSON.stringify({ t: '2026-01-01T00:00:00Z', role: 'judge', ...l }));
    await fs.writeFile(path.join(dir, STATS_FILE), `${lines.join('\n')}\n{torn\n`);
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (t: string) => out.push(t), err: (t: string) => err.push(t) };
    assert.equal(await main(['cache', 'stats', '--json'], io), 0);
    const stats = JSON.parse(out[0]!) as { entries: number; bytes: number; all: { hits: number; misses: number }; lastRun: { run: string; hitRate: number } };
    assert.equal(stats.entries, 3);
    assert.ok(stats.bytes > 0);
    assert.deepEqual([stats.all.hits, stats.all.misses], [2, 3]);
    assert.equal(stats.lastRun.run, 'r2');
    assert.equal(stats.lastRun.hitRate, 2 / 3);
    assert.match(err[0]!, /stats\.jsonl line 6 is not a stats record/);

    const old = path.join(dir, key(1).slice(0, 2), `${key(1)}.json`);
    const tenDaysAgo = new Date(Date.now() - 10 * 86_400_000);
    await fs.utimes(old, tenDaysAgo, tenDaysAgo);
    out.length = 0;
    assert.equal(await main(['cache', 'prune', '--older-than', '7d', '--json'], io), 0);
    assert.equal((JSON.parse(out[0]!) as { removed: number }).removed, 1);
    await assert.rejects(fs.stat(old));
    assert.equal(await main(['cache', 'prune', '--older-than', 'a week'], io), 2, 'a bad age is a usage error');
  } finally {
    delete process.env.IWB_LLM_CACHE_DIR;
    await fs.rm(dir, { recursive: true, force: true });
  }
});
