import { promises as fs } from 'node:fs';
import path from 'node:path';
import { loadDataset } from '../slots/load.js';
import type { Dataset } from '../slots/schema.js';
import { renderCasePage } from './case-page.js';
import { copyCaseAssets, gatherCaseViews, type SlotExtras } from './case-view.js';
import type { SlotRecord } from './metrics.js';
import type { Report } from './report-schema.js';

/**
 * Writes cases/<slug>.html (and cases/<slug>/ images) for every case of a report, beside summary.html,
 * which links to them. The dataset is loaded again for the instructions; when it cannot be (a merge on
 * another machine), the pages say so and show the rest.
 */
export async function writeCasePages(
  reportDir: string,
  report: Report,
  records: readonly (SlotRecord & SlotExtras)[],
  dataset: Dataset | { error: string },
): Promise<{ pages: number; note?: string }> {
  const cases = 'error' in dataset ? undefined : new Map(dataset.cases.map((c) => [c.id, c]));
  const note = 'error' in dataset ? dataset.error : undefined;
  const dir = path.join(reportDir, 'cases');
  // A page per case of this report only: pages of an earlier run's cases would be linked from nowhere.
  await fs.rm(dir, { recursive: true, force: true });
  await fs.mkdir(dir, { recursive: true });
  const views = await gatherCaseViews(report.cases, records, cases);
  for (const v of views) {
    const shots = await copyCaseAssets(v, reportDir);
    await fs.writeFile(path.join(reportDir, v.href), renderCasePage(v, shots));
  }
  return { pages: views.length, ...(note ? { note } : {}) };
}

/** The run's dataset for the case pages and the coverage count, or why it could not be read here. */
export async function datasetForPages(source: string): Promise<Dataset | { error: string }> {
  try {
    return await loadDataset(source);
  } catch (e) {
    return { error: `dataset ${source} not loaded for the case pages: ${(e as Error).message.split('\n')[0]}` };
  }
}

/** The case pages go wherever summary.html goes (the Playwright HTML report's folder too). */
export async function copyCasePages(fromReportDir: string, toDir: string): Promise<void> {
  await fs.rm(path.join(toDir, 'cases'), { recursive: true, force: true });
  await fs.cp(path.join(fromReportDir, 'cases'), path.join(toDir, 'cases'), { recursive: true });
}
