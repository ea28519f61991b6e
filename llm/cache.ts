import { createHash } from 'node:crypto';
import { z } from 'zod';

/**
 * The pure half of the model-call cache: what a request's key is and what an entry holds. Disk I/O is in
 * llm/cache-store.ts. The key is a hash of the request exactly as sent (after retries and structured-mode
 * fallback chose it), so a replay walks the same path the recording did.
 */
export const LLM_CACHE_MODES = ['record', 'replay', 'off'] as const;
export type LlmCacheMode = (typeof LLM_CACHE_MODES)[number];

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** JSON with sorted keys: two requests equal as data get one key whatever order their fields were built in. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The random nonce of an untrusted-data fence (judge/prompt.ts: `<<<BEGIN UNTRUSTED PAGE CONTENT 1a2b...>>>`)
 * guards against a page forging the fence; it says nothing about the request, and left in it would make every
 * fenced request a miss on replay.
 */
const FENCE_NONCE = /<<<(BEGIN|END) ([A-Z][A-Z ]*?) [0-9a-f]{8,64}>>>/g;

/** Images (data URLs, megabytes each) stand in the key as their hash; fence nonces as a constant. */
function hashImages(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(FENCE_NONCE, '<<<$1 $2 nonce>>>');
  if (Array.isArray(value)) return value.map(hashImages);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      out[k] = k === 'url' && typeof v === 'string' && v.startsWith('data:') ? `sha256:${sha256(v)}` : hashImages(v);
    }
    return out;
  }
  return value;
}

/** The request as the key sees it: the endpoint and the whole body (model, messages, tools, format, sampling, limits). */
export function normaliseRequest(baseURL: string | undefined, body: unknown): unknown {
  return { endpoint: (baseURL ?? 'https://api.openai.com/v1').replace(/\/+$/, ''), body: hashImages(body) };
}

export function requestKey(baseURL: string | undefined, body: unknown): string {
  return sha256(stableJson(normaliseRequest(baseURL, body)));
}

/** The first words of the request's last message, for an error a person can place. */
export function firstWords(body: { messages?: readonly unknown[] }, words = 8): string {
  const last = body.messages?.[body.messages.length - 1] as { content?: unknown } | undefined;
  const c = last?.content;
  const text = typeof c === 'string' ? c : Array.isArray(c) ? c.map((p: { text?: unknown }) => (typeof p.text === 'string' ? p.text : '')).join(' ') : '';
  const all = text.trim().split(/\s+/).filter(Boolean);
  return all.slice(0, words).join(' ') + (all.length > words ? ' ...' : '');
}

/**
 * A recorded outcome: a completion, or an endpoint's permanent refusal (HTTP 400/422, e.g. "response_format
 * not supported") which structured mode steps down on; transient failures (429, 5xx) are never recorded.
 */
const Outcome = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('completion'), completion: z.looseObject({ choices: z.array(z.unknown()).min(1) }) }),
  z.object({ kind: z.literal('refusal'), status: z.number().int(), body: z.unknown(), message: z.string() }),
]);
export type CacheOutcome = z.infer<typeof Outcome>;

export const CacheEntrySchema = z.object({
  version: z.literal(1),
  key: z.string().regex(/^[0-9a-f]{64}$/),
  role: z.string(),
  model: z.string(),
  outcome: Outcome,
  tokens: z.object({ prompt: z.number(), completion: z.number() }),
  latencyMs: z.number(),
  attempts: z.number().int(),
  time: z.string(),
  checksum: z.string(),
});
export type CacheEntry = z.infer<typeof CacheEntrySchema>;

export function checksumOf(entry: Omit<CacheEntry, 'checksum'>): string {
  const { checksum: _drop, ...rest } = entry as CacheEntry;
  return sha256(stableJson(rest));
}

export function sealEntry(entry: Omit<CacheEntry, 'checksum'>): CacheEntry {
  return { ...entry, checksum: checksumOf(entry) };
}

/** An entry read from disk: valid, or why not (bad JSON, schema, checksum, or a key other than its file's). */
export function openEntry(text: string, key: string): { ok: true; entry: CacheEntry } | { ok: false; why: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { ok: false, why: `not JSON (${(e as Error).message})` };
  }
  const parsed = CacheEntrySchema.safeParse(json);
  if (!parsed.success) return { ok: false, why: `field ${parsed.error.issues[0]!.path.join('.')}: ${parsed.error.issues[0]!.message}` };
  if (parsed.data.key !== key) return { ok: false, why: `holds key ${parsed.data.key.slice(0, 12)}, not its file name's` };
  if (checksumOf(parsed.data) !== parsed.data.checksum) return { ok: false, why: 'checksum mismatch (the entry was altered or torn)' };
  return { ok: true, entry: parsed.data };
}
