import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { readLlmCache, STATS_FILE } from '../llm/cache-store.js';
import { parseArgs, UsageError, type CliIo } from './io.js';

export const CACHE_USAGE = 'usage: iwb cache stats [--json] | iwb cache prune --older-than <7d | 12h | 30m> [--json]   (the model-call cache, IWB_LLM_CACHE_DIR)';

const StatLine = z.object({ t: z.string(), run: z.string(), role: z.string(), hit: z.boolean() });
type StatLine = z.infer<typeof StatLine>;

interface Tally {
  hits: number;
  misses: number;
  hitRate: number | null;
}

function tally(lines: readonly StatLine[]): Tally {
  const hits = lines.filter((l) => l.hit).length;
  return { hits, misses: lines.length - hits, hitRate: lines.length ? hits / lines.length : null };
}

/** "7d", "12h", "30m", "45s" in milliseconds. */
export function parseAge(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(d|h|m|s)$/.exec(text.trim());
  if (!m) throw new UsageError(`--older-than: expected a number and d, h, m or s (7d, 12h), got ${JSON.stringify(text)}`);
  return Number(m[1]) * { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000 }[m[2] as 'd' | 'h' | 'm' | 's'];
}

async function entries(dir: string): Promise<Array<{ file: string; bytes: number; mtimeMs: number }>> {
  const out: Array<{ file: string; bytes: number; mtimeMs: number }> = [];
  const shards = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const shard of shards.filter((d) => d.isDirectory() && /^[0-9a-f]{2}$/.test(d.name))) {
    for (const name of await fs.readdir(path.join(dir, shard.name))) {
      if (!/^[0-9a-f]{64}\.json$/.test(name)) continue;
      const file = path.join(dir, shard.name, name);
      const s = await fs.stat(file);
      out.push({ file, bytes: s.size, mtimeMs: s.mtimeMs });
    }
  }
  return out;
}

/** The stats file, line by line; a torn or foreign line is reported and skipped, not fatal. */
async function statLines(dir: string, io: CliIo): Promise<StatLine[]> {
  const file = path.join(dir, STATS_FILE);
  const text = await fs.readFile(file, 'utf8').catch(() => '');
  const out: StatLine[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    const parsed = StatLine.safeParse((() => { try { return JSON.parse(line) as unknown; } catch { return null; } })());
    if (parsed.success) out.push(parsed.data);
    else io.err(`iwb cache: ${file} line ${i + 1} is not a stats record; skipped`);
  });
  return out;
}

export async function cacheCommand(args: string[], io: CliIo): Promise<number> {
  const { positional, flags } = parseArgs(args, { string: ['older-than'], boolean: ['json'] });
  const [sub] = positional;
  const { dir } = readLlmCache();
  if (sub === 'stats') {
    const list = await entries(dir);
    const lines = await statLines(dir, io);
    const runs = [...new Set(lines.map((l) => l.run))];
    const last = runs.at(-1);
    const result = {
      dir,
      entries: list.length,
      bytes: list.reduce((a, e) => a + e.bytes, 0),
      all: tally(lines),
      lastRun: last ? { run: last, ...tally(lines.filter((l) => l.run === last)) } : null,
      byRole: Object.fromEntries([...new Set(lines.map((l) => l.role))].sort().map((r) => [r, tally(lines.filter((l) => l.role === r))])),
    };
    if (flags.has('json')) io.out(JSON.stringify(result, null, 2));
    else {
      const rate = (t: Tally) => (t.hitRate === null ? 'no lookups' : `${(t.hitRate * 100).toFixed(1)}% hits (${t.hits} hit, ${t.misses} miss)`);
      io.out([
        `model-call cache ${dir}: ${result.entries} entries, ${(result.bytes / 1024 / 1024).toFixed(2)} MB`,
        `  all runs: ${rate(result.all)}`,
        ...(result.lastRun ? [`  last run ${result.lastRun.run}: ${rate(result.lastRun)}`] : []),
        ...Object.entries(result.byRole).map(([r, t]) => `  ${r}: ${rate(t)}`),
      ].join('\n'));
    }
    return 0;
  }
  if (sub === 'prune') {
    const given = flags.get('older-than');
    if (typeof given !== 'string') throw new UsageError(`prune needs --older-than\n${CACHE_USAGE}`);
    const cutoff = Date.now() - parseAge(given);
    const old = (await entries(dir)).filter((e) => e.mtimeMs < cutoff);
    for (const e of old) await fs.rm(e.file, { force: true });
    const bytes = old.reduce((a, e) => a + e.bytes, 0);
    io.out(flags.has('json') ? JSON.stringify({ dir, removed: old.length, bytes }) : `removed ${old.length} entries (${(bytes / 1024 / 1024).toFixed(2)} MB) older than ${given} from ${dir}`);
    return 0;
  }
  throw new UsageError(CACHE_USAGE);
}
