import { createHash } from 'node:crypto';
import { readCacheFile } from '../protocol/cache-file.js';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Case, WeightedSlot } from '../slots/schema.js';
import { VerdictSchema, type Verdict } from '../protocol/verdict.js';
import { fileSafe, writeAtomic } from '../protocol/atomic-write.js';
import { PAGE_UNRESPONSIVE_STEP } from '../site/unresponsive.js';

/** What decides a verdict: if any of it changes, a cached one is not reused. */
export interface VerdictKey {
  siteHash: string;
  slotId: string;
  /** The slot's wording (and, for a NEGATIVE slot, the gold instruction): an edited slot is a new question. */
  slotHash: string;
  judgeModel: string;
  promptVersion: string;
  mode: string;
}

export function slotHash(slot: WeightedSlot, c: Case): string {
  const { id, task, expectedResult, targetComponent, assertionType } = slot;
  const gold = assertionType === 'NEGATIVE' ? c.task.goldInstruction : null;
  return createHash('sha256').update(JSON.stringify({ id, task, expectedResult, targetComponent, assertionType, gold })).digest('hex').slice(0, 16);
}

const unresponsive = (v: Verdict) => v.steps.some((s) => s.action === PAGE_UNRESPONSIVE_STEP);

/**
 * One file of the verdict cache: the key it answers and the verdict, without the session's phases (where the
 * time of the run that made it went: a verdict read back took none of this run's time, and the bench must not count it).
 */
export const VerdictFileSchema = z.object({
  key: z.object({ siteHash: z.string(), slotId: z.string(), slotHash: z.string(), judgeModel: z.string(), promptVersion: z.string(), mode: z.string() }),
  verdict: VerdictSchema.omit({ phases: true }),
});

/**
 * Judge verdicts on disk, so a rerun does not pay the judge model again. Only decided verdicts
 * (pass / fail) are stored: an errored one is worth retrying, and so is a fail because the page did not answer
 * in time (a busy machine, not only a hung page, can cause it; judging it again asks again what the session
 * asked before the page stopped, which the call cache usually holds). Files are written to a temporary name and renamed, so a reader never sees half a file; a file that does not parse is treated as absent.
 */
export class VerdictCache {
  constructor(readonly dir: string) {}

  fileFor(k: VerdictKey): string {
    const digest = createHash('sha256').update(JSON.stringify([k.siteHash, k.slotId, k.slotHash, k.judgeModel, k.promptVersion, k.mode])).digest('hex').slice(0, 16);
    return path.join(this.dir, k.siteHash.slice(0, 16), `${fileSafe(k.slotId)}.${digest}.json`);
  }

  async get(k: VerdictKey): Promise<Verdict | null> {
    const read = await readCacheFile(this.fileFor(k), VerdictFileSchema);
    if (read.kind === 'corrupt') console.warn(`[iwb] ${read.error}: not a stored verdict; judging again`);
    if (read.kind !== 'ok') return null;
    const stored = read.data;
    const same = (Object.keys(k) as Array<keyof VerdictKey>).every((f) => stored.key[f] === k[f]);
    // Older runs kept such fails: they are judged again too.
    return same && !unresponsive(stored.verdict) ? stored.verdict : null;
  }

  async put(k: VerdictKey, v: Verdict): Promise<void> {
    if (v.status !== 'pass' && v.status !== 'fail') return;
    if (unresponsive(v)) return;
    const file = this.fileFor(k);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const { phases: _thisRun, ...kept } = v;
    await writeAtomic(file, JSON.stringify({ key: k, verdict: { ...kept, cached: false } }, null, 2));
  }
}
