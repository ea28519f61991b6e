import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { readCacheFile } from '../protocol/cache-file.js';
import { fileSafe, writeAtomic } from '../protocol/atomic-write.js';
import { VerdictSchema, type Verdict } from '../protocol/verdict.js';
import { AnnotationRecordSchema, type Annotation } from '../protocol/build.js';

/**
 * A slot judged for its test: the verdict and everything the test shows with it (annotations, the judge's
 * steps, its screenshots). A case's first slot test judges all the case's slots and keeps each here; the
 * other slot tests only read theirs. Playwright replaces its worker after every failed test, so a test that
 * loads nothing heavy (no browser, page, site or judge) is what keeps a failed slot cheap.
 *
 * Records live under the project's output folder, which Playwright empties at the start of every run, and
 * under the run's id: a record never outlives the run that made it (the verdict cache is what spans runs).
 */
export const JudgedSlotSchema = z.object({
  slotId: z.string(),
  verdict: VerdictSchema,
  /** The title of the step the judging ran under, and the judge's own steps inside it. */
  step: z.string(),
  steps: z.array(z.string()),
  annotations: z.array(AnnotationRecordSchema),
  attachments: z.array(z.object({ name: z.string(), path: z.string(), contentType: z.string() })),
});
export type JudgedSlot = z.infer<typeof JudgedSlotSchema>;

export interface JudgedSlotsPlace {
  outputDir: string;
  runId?: string;
  caseId: string;
  trial: number;
}

export function judgedSlotsDir(p: JudgedSlotsPlace): string {
  return path.join(p.outputDir, '.iwb-judged', fileSafe(p.runId ?? 'run'), fileSafe(p.caseId), `t${p.trial}`);
}

/**
 * Held by whoever judges the case's slots (the runner ahead of the tests, or a slot test): a test that finds
 * no record of its slot while the case is being judged waits for the record instead of judging it twice.
 */
export function judgingLock(dir: string): string {
  return `${dir}.lock`;
}

function fileOf(dir: string, slotId: string): string {
  return path.join(dir, `${fileSafe(slotId)}.json`);
}

/** The slot's record, or null when it was not judged ahead (or its file is torn: then it is judged again). */
export async function readJudgedSlot(dir: string, slotId: string): Promise<JudgedSlot | null> {
  const read = await readCacheFile(fileOf(dir, slotId), JudgedSlotSchema);
  if (read.kind === 'corrupt') console.warn(`[iwb] ${read.error}: judging the slot again`);
  return read.kind === 'ok' && read.data.slotId === slotId ? read.data : null;
}

export interface JudgedSlotDraft {
  slotId: string;
  verdict: Verdict;
  step: string;
  steps: string[];
  annotations: Annotation[];
  pngs: { name: string; body: Buffer }[];
}

/** Writes the screenshots beside the record, then the record (whole or not at all). */
export async function writeJudgedSlot(dir: string, d: JudgedSlotDraft): Promise<JudgedSlot> {
  await fs.mkdir(dir, { recursive: true });
  const base = fileSafe(d.slotId);
  const attachments = await Promise.all(
    d.pngs.map(async (png, i) => {
      const file = path.join(dir, `${base}.${i}.png`);
      await fs.writeFile(file, png.body);
      return { name: png.name, path: file, contentType: 'image/png' };
    }),
  );
  const record: JudgedSlot = { slotId: d.slotId, verdict: d.verdict, step: d.step, steps: d.steps, annotations: d.annotations, attachments };
  await writeAtomic(fileOf(dir, d.slotId), JSON.stringify(record));
  return record;
}

/** What a slot test asks: its slot's judged record, read when judged ahead, else judged now. */
export interface SlotJudging {
  judge(slotId: string): Promise<JudgedSlot>;
}
