import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { readCacheFile } from '../protocol/cache-file.js';
import { writeAtomic } from '../protocol/atomic-write.js';
import { tryLock, unlock } from '../protocol/file-lock.js';
import { JudgeStepSchema, TokenPairSchema } from '../protocol/verdict.js';
import type { SessionResult } from './session-loop.js';

/**
 * A case-wide judge session's result on disk beside the episode, so the case's other slot tests (in this
 * worker or another) and reruns read it instead of judging again. One process runs the session under a
 * lock; the others wait for the file. Only a session that decided something is written: one that errored
 * throughout is worth trying again.
 */

const StoredSchema = z.object({
  key: z.string(),
  outcomes: z.array(z.object({ slot: z.string(), status: z.enum(['pass', 'fail', 'errored']), evidence: z.string(), unmentioned: z.boolean().optional() })),
  steps: z.array(JudgeStepSchema),
  injection: z.string().nullable(),
  blockedRequests: z.number(),
  tokens: TokenPairSchema,
  durationMs: z.number(),
});

const POLL_MS = 200;

export async function sharedSession(file: string, key: string, run: () => Promise<SessionResult>): Promise<{ result: SessionResult; ran: boolean }> {
  const lock = `${file}.lock`;
  await fs.mkdir(path.dirname(file), { recursive: true });
  for (;;) {
    const found = await readStored(file, key);
    if (found) return { result: found, ran: false };
    if (await tryLock(lock)) break;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  try {
    const again = await readStored(file, key);
    if (again) return { result: again, ran: false };
    const result = await run();
    if ([...result.outcomes.values()].some((o) => o.status !== 'errored')) {
      const { outcomes, phases: _now, ...rest } = result;
      await writeAtomic(file, JSON.stringify({ key, outcomes: [...outcomes].map(([slot, o]) => ({ slot, ...o })), ...rest }, null, 2));
    }
    return { result, ran: true };
  } finally {
    await unlock(lock);
  }
}

async function readStored(file: string, key: string): Promise<SessionResult | null> {
  const read = await readCacheFile(file, StoredSchema);
  if (read.kind === 'corrupt') console.warn(`[iwb] ${read.error}: not a judge session; judging again`);
  if (read.kind !== 'ok' || read.data.key !== key) return null;
  const { key: _key, outcomes, ...rest } = read.data;
  return { ...rest, outcomes: new Map(outcomes.map(({ slot, ...o }) => [slot, o])) };
}
