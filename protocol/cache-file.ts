import { promises as fs } from 'node:fs';
import type { z } from 'zod';

export type CacheRead<T> = { kind: 'missing' } | { kind: 'ok'; data: T } | { kind: 'corrupt'; error: string };

/**
 * Reads a cache file the run wrote earlier and checks it against its schema: a file that is missing is
 * simply not cached, one that is torn or hand-edited is `corrupt` with a message naming the file and the
 * first field that does not fit, so the caller says so and computes the value again instead of trusting it.
 */
export async function readCacheFile<S extends z.ZodType>(file: string, schema: S): Promise<CacheRead<z.output<S>>> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    return { kind: 'missing' };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { kind: 'corrupt', error: `${file}: not valid JSON (${(e as Error).message})` };
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { kind: 'ok', data: parsed.data };
  const issue = parsed.error.issues[0]!;
  return { kind: 'corrupt', error: `${file}: field ${issue.path.join('.') || '(root)'}: ${issue.message}` };
}
