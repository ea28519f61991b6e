import { promises as fs } from 'node:fs';
import path from 'node:path';
import { llmCacheDir, readSettings } from '../config/settings.js';
import { parseGroup, usageOf } from './commands.js';
import { cliEnv, UsageError, type CliIo } from './io.js';


interface Entry {
  file: string;
  bytes: number;
  mtimeMs: number;
}

async function entries(dir: string): Promise<Entry[]> {
  const out: Entry[] = [];
  for (const shard of await fs.readdir(dir).catch(() => [] as string[])) {
    if (!/^[0-9a-f]{2}$/.test(shard)) continue;
    for (const name of await fs.readdir(path.join(dir, shard)).catch(() => [] as string[])) {
      if (!name.endsWith('.json')) continue;
      const file = path.join(dir, shard, name);
      const st = await fs.stat(file).catch(() => null);
      if (st) out.push({ file, bytes: st.size, mtimeMs: st.mtimeMs });
    }
  }
  return out;
}

/** Hit rate over every process that used the cache (stats.jsonl, one line per worker or command). */
async function hitRate(dir: string): Promise<{ hits: number; misses: number; stored: number; corrupt: number }> {
  const total = { hits: 0, misses: 0, stored: 0, corrupt: 0 };
  const text = await fs.readFile(path.join(dir, 'stats.jsonl'), 'utf8').catch(() => '');
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const s = JSON.parse(line) as Partial<typeof total>;
      for (const k of Object.keys(total) as (keyof typeof total)[]) total[k] += Number(s[k] ?? 0) || 0;
    } catch {
      // a torn last line of a killed process: skipped
    }
  }
  return total;
}

/** `iwb cache stats | prune`: the model call cache (llm/call-cache.ts) in IWB_LLM_CACHE_DIR. */
export async function cacheCommand(args: string[], io: CliIo, env: NodeJS.ProcessEnv = cliEnv()): Promise<number> {
  const { sub: verb, positional, flags } = parseGroup(args, 'cache');
  if (positional.length > 0) throw new UsageError(usageOf('cache', verb));
  const dir = llmCacheDir(readSettings(env));
  const all = await entries(dir);
  if (verb === 'stats') {
    const rate = await hitRate(dir);
    const looked = rate.hits + rate.misses;
    const bytes = all.reduce((s, e) => s + e.bytes, 0);
    const oldest = all.length ? new Date(Math.min(...all.map((e) => e.mtimeMs))).toISOString() : null;
    const summary = { dir, entries: all.length, bytes, oldest, ...rate, hitRate: looked ? rate.hits / looked : null };
    io.out(
      flags.has('json')
        ? JSON.stringify(summary, null, 2)
        : `${dir}: ${all.length} recorded replies, ${(bytes / 2 ** 20).toFixed(1)} MiB${oldest ? `, oldest ${oldest}` : ''}\n` +
            `lookups ${looked}: ${rate.hits} hits, ${rate.misses} misses${summary.hitRate === null ? '' : ` (hit rate ${(summary.hitRate * 100).toFixed(1)}%)`}, ${rate.stored} stored, ${rate.corrupt} corrupt`,
    );
    return 0;
  }
  const age = flags.get('older-than');
  const days = typeof age === 'string' ? /^(\d+(?:\.\d+)?)d$/.exec(age)?.[1] : undefined;
  if (days === undefined) throw new UsageError(`${usageOf('cache', 'prune')}\n--older-than takes days, e.g. 30d`);
  const cutoff = Date.now() - Number(days) * 86_400_000;
  const old = all.filter((e) => e.mtimeMs < cutoff);
  await Promise.all(old.map((e) => fs.rm(e.file, { force: true })));
  const freed = old.reduce((s, e) => s + e.bytes, 0);
  io.out(flags.has('json') ? JSON.stringify({ dir, removed: old.length, bytes: freed, kept: all.length - old.length }) : `${dir}: removed ${old.length} replies older than ${days} days (${(freed / 2 ** 20).toFixed(1)} MiB), kept ${all.length - old.length}`);
  return 0;
}
