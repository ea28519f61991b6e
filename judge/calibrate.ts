import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from '@playwright/test';
import { z } from 'zod';
import { serveStatic, type ServedSite } from '../agent/site-server.js';
import type { Case, Task } from '../slots/schema.js';
import { agreement, type Agreement } from './agreement.js';
import type { Judge, VerdictStatus } from './types.js';

/**
 * Calibration: judges run over sites whose right answers are known - each built-in task's reference
 * site (every slot passes) and its broken variants (`tasks/<id>/variants/<name>/`, with expected.json
 * naming every slot's answer). The probes must score 100% here; a judge model gets accuracy, precision
 * and recall for fail, and Cohen's kappa.
 */

export const ExpectedSchema = z.record(z.string(), z.enum(['pass', 'fail']));

export interface CalibrationSite {
  taskId: string;
  /** 'reference' or the variant's folder name. */
  variant: string;
  dir: string;
  expected: Record<string, 'pass' | 'fail'>;
}

export interface CalibrationRow {
  taskId: string;
  variant: string;
  slotId: string;
  expected: 'pass' | 'fail';
  got: Record<string, { status: VerdictStatus; evidence: string }>;
}

/** Reference sites and variants of the tasks; throws naming the file when an expected.json is incomplete. */
export async function listCalibrationSites(tasks: Task[]): Promise<CalibrationSite[]> {
  const out: CalibrationSite[] = [];
  for (const t of tasks) {
    if (!t.referenceSite) continue;
    out.push({ taskId: t.id, variant: 'reference', dir: t.referenceSite, expected: Object.fromEntries(t.slots.map((s) => [s.id, 'pass' as const])) });
    const root = path.join(path.dirname(t.referenceSite), 'variants');
    const names = await fs.readdir(root, { withFileTypes: true }).then((es) => es.filter((e) => e.isDirectory()).map((e) => e.name).sort(), () => []);
    for (const name of names) {
      const file = path.join(root, name, 'expected.json');
      const parsed = ExpectedSchema.safeParse(JSON.parse(await fs.readFile(file, 'utf8')));
      if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues[0]?.message ?? 'invalid'} (expected { "<slot id>": "pass" | "fail" })`);
      const missing = t.slots.filter((s) => !(s.id in parsed.data)).map((s) => s.id);
      const unknown = Object.keys(parsed.data).filter((id) => !t.slots.some((s) => s.id === id));
      if (missing.length || unknown.length) {
        throw new Error(`${file}: ${missing.length ? `no answer for slot(s) ${missing.join(', ')}` : ''}${missing.length && unknown.length ? '; ' : ''}${unknown.length ? `unknown slot(s) ${unknown.join(', ')}` : ''}`);
      }
      out.push({ taskId: t.id, variant: name, dir: path.join(root, name), expected: parsed.data });
    }
  }
  return out;
}

export interface CalibrationJudge {
  /** The key the summary uses: 'probe' or the judge model's name. */
  key: string;
  judge: Judge;
  /** Only slots with a probe (the probe judge) or every slot (a model judge). */
  slots: 'probed' | 'all';
}

export interface CalibrationRequest {
  browser: Browser;
  cases: Case[];
  sites: CalibrationSite[];
  judges: CalibrationJudge[];
  concurrency?: number;
}

/**
 * Serves each site from a copy without its expected.json (a judge model could otherwise open
 * /expected.json and read the answers), then judges every slot on a fresh page, a few at a time.
 */
export async function runCalibration(req: CalibrationRequest): Promise<CalibrationRow[]> {
  const staging = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-calibration-'));
  const served: ServedSite[] = [];
  try {
    const jobs: Array<() => Promise<void>> = [];
    const rows: CalibrationRow[] = [];
    for (const [i, site] of req.sites.entries()) {
      const c = req.cases.find((x) => x.taskId === site.taskId);
      if (!c) throw new Error(`calibration: no case for task ${site.taskId}`);
      const copy = path.join(staging, `${i}-${site.taskId}-${site.variant}`);
      await fs.cp(site.dir, copy, { recursive: true, filter: (src) => path.basename(src) !== 'expected.json' });
      const server = await serveStatic(copy);
      served.push(server);
      for (const slot of c.slots) {
        const row: CalibrationRow = { taskId: site.taskId, variant: site.variant, slotId: slot.id, expected: site.expected[slot.id]!, got: {} };
        rows.push(row);
        for (const j of req.judges) {
          if (j.slots === 'probed' && !slot.probe) continue;
          jobs.push(async () => {
            const context = await req.browser.newContext({ viewport: { width: 1280, height: 800 } });
            try {
              const page = await context.newPage();
              const v = await j.judge.judge({ url: server.url, root: copy, page, browser: req.browser, case: c }, slot);
              row.got[j.key] = { status: v.status, evidence: v.evidence };
            } finally {
              await context.close().catch(() => {});
            }
          });
        }
      }
    }
    await pool(jobs, req.concurrency ?? 3);
    return rows;
  } finally {
    await Promise.all(served.map((s) => s.close()));
    await fs.rm(staging, { recursive: true, force: true });
  }
}

async function pool(jobs: Array<() => Promise<void>>, size: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) await jobs[next++]!();
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(size, jobs.length)) }, worker));
}

export interface CalibrationSummary {
  probes: { accuracy: number; slots: number };
  judges: Record<string, { accuracy: number; precisionFail: number | null; recallFail: number | null; kappa: number | null }>;
  /** Every verdict that disagrees with its expected answer, for the reader to fix site or judge. */
  misjudged: Array<{ judge: string; taskId: string; variant: string; slotId: string; expected: string; got: string; evidence: string }>;
}

export function summarise(rows: CalibrationRow[], probeKey: string, modelKeys: string[]): CalibrationSummary {
  const of = (key: string): Agreement =>
    agreement(rows.filter((r) => r.got[key]).map((r) => ({ expected: r.expected, got: r.got[key]!.status })));
  const probe = of(probeKey);
  const judges: CalibrationSummary['judges'] = {};
  for (const k of modelKeys) {
    const a = of(k);
    judges[k] = { accuracy: a.accuracy, precisionFail: a.precisionFail, recallFail: a.recallFail, kappa: a.kappa };
  }
  const misjudged = rows.flatMap((r) =>
    Object.entries(r.got)
      .filter(([, v]) => v.status !== r.expected)
      .map(([judge, v]) => ({ judge, taskId: r.taskId, variant: r.variant, slotId: r.slotId, expected: r.expected, got: v.status, evidence: v.evidence.slice(0, 300) })),
  );
  return { probes: { accuracy: probe.accuracy, slots: probe.slots }, judges, misjudged };
}
