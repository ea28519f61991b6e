import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { CallCacheMode } from '../config/settings.js';
import { writeAtomic } from '../protocol/atomic-write.js';

/**
 * Record / replay of model calls, content-addressed: the key is a hash of the normalised request (endpoint,
 * model, messages with images replaced by their hash, tools, response format, sampling, token limit); the
 * entry is the provider's reply with its usage and latency. `record` reads the cache and calls on a miss,
 * `replay` never calls (a miss is the caller's InfraError), `off` neither reads nor writes.
 * Only replies worth reusing are stored: a 200 with choices whose message says something.
 */

const EntrySchema = z.object({
  version: z.literal(1),
  key: z.string(),
  role: z.string(),
  model: z.string(),
  storedAt: z.string(),
  latencyMs: z.number(),
  /** sha256 of `completion` as stored: a torn or edited entry is a miss, not a reply. */
  checksum: z.string(),
  completion: z.looseObject({ choices: z.array(z.unknown()).min(1) }),
});

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * Run-specific text that does not change what a model is asked: the port a site was served on, the
 * temporary folder an episode ran in, the nonce fencing untrusted page text. Left in, every rerun would miss.
 */
export function withoutRunSpecifics(text: string): string {
  return text
    .replace(/\b(127\.0\.0\.1|localhost|\[::1\]):\d{2,5}\b/g, '$1:PORT')
    .replace(/\/tmp\/[A-Za-z0-9._-]+/g, '/tmp/TMP')
    // The judge fences page text with a fresh random nonce each session (judge/prompt.ts), so a page cannot forge the end.
    .replace(/<<<(BEGIN|END) ([A-Z ]+?) [0-9a-f]{8,}>>>/g, '<<<$1 $2 NONCE>>>');
}

function normalise(value: unknown): unknown {
  if (typeof value === 'string') {
    // An image is known by its bytes' hash: the key stays small and equal images stay equal.
    if (value.startsWith('data:image/')) return `image:${sha(value)}`;
    return withoutRunSpecifics(value);
  }
  if (Array.isArray(value)) return value.map(normalise);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) out[k] = normalise((value as Record<string, unknown>)[k]);
    return out;
  }
  return value;
}

export function callKey(baseURL: string | undefined, body: object): string {
  return sha(JSON.stringify({ baseURL: baseURL ?? 'https://api.openai.com/v1', body: normalise(body) }));
}

/** The first words of a request's last user message, to name a replay miss. */
export function requestGist(body: { messages?: Array<{ content?: unknown }> }): string {
  const last = body.messages?.at(-1)?.content;
  const text = typeof last === 'string' ? last : Array.isArray(last) ? last.map((p) => (p as { text?: string }).text ?? '').join(' ') : '';
  return text.replace(/\s+/g, ' ').trim().slice(0, 80);
}

export interface CallCacheStats {
  hits: number;
  misses: number;
  stored: number;
  corrupt: number;
}

export class CallCache {
  readonly stats: CallCacheStats = { hits: 0, misses: 0, stored: 0, corrupt: 0 };

  constructor(
    readonly mode: CallCacheMode,
    readonly dir: string,
  ) {}

  private file(key: string): string {
    return path.join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  async get(key: string): Promise<{ completion: ChatCompletion; latencyMs: number } | null> {
    if (this.mode === 'off') return null;
    const file = this.file(key);
    const text = await fs.readFile(file, 'utf8').catch(() => null);
    if (text === null) {
      this.stats.misses++;
      return null;
    }
    let entry: z.infer<typeof EntrySchema> | null = null;
    let completion: ChatCompletion | undefined;
    try {
      const raw = JSON.parse(text) as { completion?: unknown };
      const parsed = EntrySchema.safeParse(raw);
      // The checksum is over the completion as written (zod's output may order its keys differently).
      if (parsed.success && parsed.data.key === key && sha(JSON.stringify(raw.completion)) === parsed.data.checksum) {
        entry = parsed.data;
        completion = raw.completion as ChatCompletion;
      }
    } catch {
      // not JSON: corrupt, handled below
    }
    if (!entry || !completion) {
      this.stats.corrupt++;
      this.stats.misses++;
      process.stderr.write(`[iwb] model call cache: ${file} is corrupt (bad JSON, schema or checksum); treated as a miss\n`);
      return null;
    }
    this.stats.hits++;
    return { completion, latencyMs: entry.latencyMs };
  }

  async put(key: string, role: string, model: string, completion: ChatCompletion, latencyMs: number): Promise<void> {
    if (this.mode !== 'record') return;
    const file = this.file(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const entry = { version: 1, key, role, model, storedAt: new Date().toISOString(), latencyMs, checksum: sha(JSON.stringify(completion)), completion };
    await writeAtomic(file, JSON.stringify(entry));
    this.stats.stored++;
  }
}

/**
 * Each process adds its counts to `<dir>/stats.jsonl` when it exits (synchronously: an exit handler cannot
 * wait), which `iwb cache stats` sums into a hit rate.
 */
export function recordStatsOnExit(cache: CallCache): void {
  process.once('exit', () => {
    const s = cache.stats;
    if (s.hits + s.misses + s.stored === 0) return;
    try {
      mkdirSync(cache.dir, { recursive: true });
      appendFileSync(path.join(cache.dir, 'stats.jsonl'), JSON.stringify({ at: new Date().toISOString(), mode: cache.mode, ...s }) + '\n');
    } catch {
      // a read-only cache folder loses its statistics, never the run
    }
  });
}

/** The structured-output modes a recorded run's preflight found, so a replay asks the same way. */
export function modesFile(dir: string): string {
  return path.join(dir, 'modes.json');
}
