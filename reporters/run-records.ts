import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { fileSafe, writeAtomic } from '../protocol/atomic-write.js';
import { ReportSchema } from './report-schema.js';
import { SlotRecordSchema } from './slot-record.js';
import type { SlotExtras } from './case-view.js';

/**
 * What a run's report is made from, kept in the run folder: `<IWB_RUN_DIR>/scored/<run id>/records.json`
 * (every slot record the reporter gathered, and the run's facts) with the judge's screenshots beside it in
 * images/. The judged-slot records under test-results/ are emptied by the next run; these are not, so
 * `iwb report` can score a finished run again (another profile, a fixed metric) without a model or a browser.
 */
export const SCORED_DIR = 'scored';
const RECORDS_FILE = 'records.json';

/** The run-wide facts a report's meta is built from: the report's own meta fields, minus what scoring adds. */
export const RunMetaSchema = ReportSchema.shape.meta.pick({ startedAt: true, durationMs: true, dataset: true, agents: true, playwrightStatus: true, sandbox: true, profile: true, user: true, degradation: true });
export type RunMeta = z.infer<typeof RunMetaSchema>;

const KeptSlotSchema = SlotRecordSchema.extend({
  /** The slot test's image attachments, relative to the records file's folder. */
  images: z.array(z.object({ name: z.string(), file: z.string() })),
});

export const RunRecordsSchema = z.object({
  schemaVersion: z.literal(1),
  runId: z.string(),
  meta: RunMetaSchema,
  /** Playwright stopped the run early, or some case's slot tests never all ended. */
  interrupted: z.boolean(),
  records: z.array(KeptSlotSchema),
});
export type RunRecords = z.infer<typeof RunRecordsSchema>;

export type RecordWithExtras = z.infer<typeof SlotRecordSchema> & SlotExtras;

export function scoredDir(runDir: string, runId: string): string {
  return path.join(runDir, SCORED_DIR, fileSafe(runId));
}

/**
 * Keeps a finished run's records. Images are hard-linked where the file system allows (the same bytes the
 * case pages copy; a link costs no space), else copied; an image that vanished is left out, as on the page.
 */
export async function keepRunRecords(runDir: string, run: { runId: string; meta: RunMeta; interrupted: boolean; records: readonly RecordWithExtras[] }): Promise<string> {
  const dir = scoredDir(runDir, run.runId);
  const images = path.join(dir, 'images');
  await fs.rm(dir, { recursive: true, force: true });
  await fs.mkdir(images, { recursive: true });
  let n = 0;
  const keepImage = async (img: SlotExtras['images'][number]): Promise<string | null> => {
    const file = `images/${n++}.png`;
    const target = path.join(dir, file);
    if (img.body) return fs.writeFile(target, img.body).then(() => file, () => null);
    if (!img.path) return null;
    const from = img.path;
    return fs.link(from, target).then(
      () => file,
      () => fs.copyFile(from, target).then(() => file, () => null),
    );
  };
  const records = [];
  for (const { images: imgs, ...r } of run.records) {
    const kept: Array<{ name: string; file: string }> = [];
    for (const img of imgs) {
      const file = await keepImage(img);
      if (file) kept.push({ name: img.name, file });
    }
    records.push({ ...r, images: kept });
  }
  const data: RunRecords = { schemaVersion: 1, runId: run.runId, meta: run.meta, interrupted: run.interrupted, records };
  await writeAtomic(path.join(dir, RECORDS_FILE), JSON.stringify(data));
  return dir;
}

/**
 * The records `iwb report` scores, from what it was given: a records.json, the folder holding one, or a run
 * folder (its newest scored run, or the one named by `runId`). Image paths come back absolute.
 */
export async function readRunRecords(given: string, runId?: string): Promise<{ file: string; run: RunRecords; records: RecordWithExtras[] }> {
  const file = await locate(path.resolve(given), runId);
  const text = await fs.readFile(file, 'utf8');
  const parsed = RunRecordsSchema.safeParse(JSON.parse(text));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${file}: field ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  const dir = path.dirname(file);
  const records = parsed.data.records.map(({ images, ...r }) => ({ ...r, images: images.map((i) => ({ name: i.name, path: path.join(dir, i.file) })) }));
  return { file, run: parsed.data, records };
}

async function locate(given: string, runId: string | undefined): Promise<string> {
  const isFile = async (f: string) => (await fs.stat(f).catch(() => null))?.isFile() ?? false;
  if (given.endsWith('.json') && (await isFile(given))) return given;
  if (!runId && (await isFile(path.join(given, RECORDS_FILE)))) return path.join(given, RECORDS_FILE);
  const scored = path.join(given, SCORED_DIR);
  if (runId) {
    const file = path.join(scoredDir(given, runId), RECORDS_FILE);
    if (await isFile(file)) return file;
    throw new Error(`${given} keeps no records of run ${runId} (looked for ${file})`);
  }
  const names = await fs.readdir(scored).catch(() => [] as string[]);
  const found = (await Promise.all(names.map(async (n) => {
    const f = path.join(scored, n, RECORDS_FILE);
    const st = await fs.stat(f).catch(() => null);
    return st?.isFile() ? { f, mtime: st.mtimeMs } : null;
  }))).filter((x): x is { f: string; mtime: number } => x !== null);
  const newest = found.sort((a, b) => b.mtime - a.mtime)[0];
  if (!newest) throw new Error(`${given} holds no scored run (no ${SCORED_DIR}/<run id>/${RECORDS_FILE}: runs before \`iwb report\` existed did not keep their slot records; run again to get one)`);
  return newest.f;
}
