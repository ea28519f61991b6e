import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { PriceTable } from '../llm/usage.js';
import { writeAtomic } from '../protocol/atomic-write.js';
import { datasetForPages, writeCasePages } from './case-viewer.js';
import { formatMarkdown } from './format.js';
import { renderSummary } from './html-summary.js';
import { buildReport, type Report } from './report.js';
import type { BootstrapOptions } from '../stats/intervals.js';
import { partialReason } from './run-health.js';
import type { RecordWithExtras, RunMeta } from './run-records.js';

export interface ReportInput {
  records: readonly RecordWithExtras[];
  meta: RunMeta;
  /** Playwright stopped early, or some case's slot tests never all ended. */
  interrupted: boolean;
  prices: PriceTable;
  bootstrap?: BootstrapOptions;
  /** Set by `iwb report`: the report was scored again from kept records, not by the run itself. */
  rescored?: NonNullable<Report['meta']['rescored']>;
}

export interface WrittenReport {
  report: Report;
  summary: string;
  pages: { pages: number; note?: string };
}

/**
 * Everything a report folder holds (report.json, report.md, summary.html, cases/), from slot records: the
 * one path both the reporter at the end of a run and `iwb report` on a kept run go through, so a re-scored
 * report is the run's own whenever the rules are the same.
 */
export async function writeReportFolder(outputDir: string, input: ReportInput): Promise<WrittenReport> {
  const { records } = input;
  const report = buildReport(records, input.meta, { prices: input.prices, ...(input.bootstrap ? { bootstrap: input.bootstrap } : {}) });
  const firstError = records.find((r) => r.status === 'errored')?.evidence;
  if (firstError) report.meta.firstError = firstError.slice(0, 1000);
  if (input.rescored) report.meta.rescored = input.rescored;
  const dataset = await datasetForPages(input.meta.dataset);
  const inDataset = 'error' in dataset ? null : dataset.cases.length;
  const casesRun = new Set(records.map((r) => r.caseId)).size;
  const reason = partialReason(casesRun, inDataset, input.interrupted);
  if (reason) report.meta.partial = { casesRun, casesInDataset: inDataset, interrupted: input.interrupted, reason };
  await fs.mkdir(outputDir, { recursive: true });
  // Whole or not at all: a run killed while writing leaves the last report, never half of this one.
  await writeAtomic(path.join(outputDir, 'report.json'), JSON.stringify(report, null, 2));
  await writeAtomic(path.join(outputDir, 'report.md'), formatMarkdown(report));
  const summary = path.join(outputDir, 'summary.html');
  await fs.writeFile(summary, renderSummary(report));
  const pages = await writeCasePages(outputDir, report, records, dataset);
  return { report, summary, pages };
}
