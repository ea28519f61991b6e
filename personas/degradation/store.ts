import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { writeAtomic } from '../../protocol/atomic-write.js';
import path from 'node:path';
import { z } from 'zod';
import { PersonaSchema, type Case, type Dataset } from '../../slots/schema.js';

/**
 * Degradation records live beside a dataset, never inside it: the public release is third-party data. One
 * JSON file per dataset maps case ids to the slots the persona omits, blurs or contradicts, with how each
 * record was made and a hash of what it was made from, so a record whose texts changed is re-derived and a
 * judged one is never paid for twice.
 */
export const DegradationRecordSchema = z.object({
  persona: PersonaSchema,
  omits: z.array(z.string()),
  blurs: z.array(z.string()),
  contradicts: z.array(z.string()),
  method: z.enum(['offline', 'llm', 'offline-after-llm-error']),
  model: z.string().optional(),
  /** Hash of the texts, slots, method, model and prompt the record was made from. */
  inputHash: z.string(),
  error: z.string().optional(),
  /** Offline only: per slot, the gold sentence and its retelling, for a reader checking a record by hand. */
  findings: z.array(z.object({ slotId: z.string(), kind: z.string(), gold: z.string(), persona: z.string().nullable(), why: z.string() })).optional(),
});
export type DegradationRecord = z.infer<typeof DegradationRecordSchema>;

export const DegradationFileSchema = z.object({
  version: z.literal(1),
  dataset: z.string(),
  createdAt: z.string(),
  records: z.record(z.string(), DegradationRecordSchema),
});
export type DegradationFile = z.infer<typeof DegradationFileSchema>;

export const hashOf = (value: unknown): string => createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);

/** What a case's record depends on besides the method: if any of it changes, the record is stale. */
export function caseInputHash(c: Case, method: string, extra: unknown = null): string {
  return hashOf({ gold: c.task.goldInstruction, shown: c.instruction, slots: c.slots.map((s) => [s.id, s.task, s.expectedResult, s.targetComponent]), method, extra });
}

/** `<dir>/all.jsonl` -> `<dir>/all.degradation.json`: the file a researcher may keep beside the dataset. */
export function besidePath(datasetFile: string): string {
  const parsed = path.parse(path.resolve(datasetFile));
  return path.join(parsed.dir, `${parsed.name}.degradation.json`);
}

/** The default home: a cache folder under .iwb/, named after the dataset and its absolute path. */
export function cachePath(datasetFile: string, cacheDir: string): string {
  const abs = path.resolve(datasetFile);
  return path.join(cacheDir, `${path.parse(abs).name}-${hashOf(abs).slice(0, 8)}.degradation.json`);
}

export async function readDegradationFile(file: string): Promise<DegradationFile | undefined> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`${file}: cannot read the degradation records (${(e as Error).message})`, { cause: e });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new Error(`${file}: not valid JSON (${(e as Error).message}); delete it or re-run \`iwb personas annotate\``, { cause: e });
  }
  const parsed = DegradationFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${file}: field ${issue.path.join('.') || '(root)'}: ${issue.message}; delete it or re-run \`iwb personas annotate\``);
  }
  return parsed.data;
}

export async function writeDegradationFile(file: string, data: DegradationFile): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await writeAtomic(file, JSON.stringify(data, null, 2) + '\n');
}

/**
 * Gives every case without a dataset-supplied degradation the stored record for it. A record that names a
 * slot the case does not have is an error (the file belongs to another dataset), named with file and case.
 */
export function attachDegradation(ds: Dataset, file: DegradationFile, fileName: string): { attached: number } {
  let attached = 0;
  for (const c of ds.cases) {
    const entry = c.task.personas[c.persona];
    if (!entry || entry.degradation) continue;
    const r = file.records[c.id];
    if (!r) continue;
    const ids = new Set(c.slots.map((s) => s.id));
    for (const list of ['omits', 'blurs', 'contradicts'] as const) {
      const bad = r[list].find((id) => !ids.has(id));
      if (bad) throw new Error(`${fileName}: record ${c.id}, field ${list}: slot ${bad} is not a slot of the case; the file belongs to another dataset`);
    }
    entry.degradation = { omits: r.omits, blurs: r.blurs, contradicts: r.contradicts };
    attached++;
  }
  return { attached };
}
