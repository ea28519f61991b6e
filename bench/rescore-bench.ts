import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { main } from '../cli/main.js';
import { SlotAnnotationSchema } from '../protocol/annotations.js';
import { slotAnnotation } from '../protocol/build.js';
import { keepRunRecords, readRunRecords, type RecordWithExtras } from '../reporters/run-records.js';
import { loadDataset } from '../slots/load.js';

export const RescoreFiguresSchema = z.object({
  cases: z.number().int(),
  slots: z.number().int(),
  /** The real run whose records were spread over the dataset's cases (a full-size run takes over an hour). */
  templateCases: z.number().int(),
  /** Wall time of `iwb report` in this process: read the records, score, write report.json, report.md, summary and case pages. */
  seconds: z.number(),
});
export type RescoreFigures = z.infer<typeof RescoreFiguresSchema>;

/**
 * A run folder of the dataset's size made from a small real one: each dataset case takes the episode,
 * visual check, verdicts and screenshots of a template case in turn, under its own ids, slots and weights.
 * What `iwb report` does per case (score, page, copy images, read the trajectory) is the same as for a
 * real run of that size; only the figures are not the dataset's.
 */
export async function synthesiseRun(templateRunDir: string, datasetFile: string, into: string, cases?: number): Promise<{ cases: number; slots: number; templateCases: number }> {
  const template = await readRunRecords(templateRunDir);
  const byCase = new Map<string, RecordWithExtras[]>();
  for (const r of template.records) byCase.set(`${r.caseId}\0${r.trial ?? 0}`, [...(byCase.get(`${r.caseId}\0${r.trial ?? 0}`) ?? []), r]);
  const groups = [...byCase.values()];
  if (groups.length === 0) throw new Error(`bench: ${template.file} holds no slot records to spread`);
  const dataset = await loadDataset(datasetFile);
  const chosen = dataset.cases.slice(0, cases ?? dataset.cases.length);
  const records: RecordWithExtras[] = chosen.flatMap((c, i) => {
    const from = groups[i % groups.length]!;
    return c.slots.map((slot, j) => {
      const t = from[j % from.length]!;
      // The slot's own annotation, as a slot test of that case would carry it.
      return { ...t, ...SlotAnnotationSchema.parse(JSON.parse(slotAnnotation(c, slot).description ?? '{}')) };
    });
  });
  await keepRunRecords(into, { runId: 'synthetic', meta: { ...template.run.meta, dataset: datasetFile }, interrupted: false, records });
  return { cases: chosen.length, slots: records.length, templateCases: groups.length };
}

/** Times `iwb report` on a run folder synthesised from `templateRunDir` over `datasetFile`'s cases. */
export async function rescoreBench(templateRunDir: string, datasetFile: string, cases?: number): Promise<RescoreFigures> {
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-rescore-bench-'));
  try {
    const size = await synthesiseRun(templateRunDir, datasetFile, path.join(work, 'runs'), cases);
    const errors: string[] = [];
    const t0 = performance.now();
    const code = await main(['report', path.join(work, 'runs'), '--out', path.join(work, 'report'), '--json'], { out: () => {}, err: (t) => errors.push(t) });
    const seconds = (performance.now() - t0) / 1000;
    if (code !== 0) throw new Error(`bench: iwb report exited ${code}: ${errors.join('\n')}`);
    return { ...size, seconds: Math.round(seconds * 100) / 100 };
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

export function rescoreMarkdown(r: RescoreFigures): string[] {
  return [
    `Re-score (\`iwb report\`, no model, no browser) of a ${r.cases}-case, ${r.slots}-slot run folder: ${r.seconds.toFixed(1)} s. ` +
      `The folder was synthesised from a real ${r.templateCases}-case run's records (each case took a real case's episode, verdicts and screenshots in turn), since a full-size run takes over an hour.`,
    '',
  ];
}
