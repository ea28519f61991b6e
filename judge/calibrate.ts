import { promises as fs } from 'node:fs';
import { SERVICE_WORKERS } from '../sandbox/browser-network.js';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { serveStatic, type ServedSite } from '../site/site-server.js';
import type { AssertionType, Case, CTech, Task } from '../slots/schema.js';
import { agreementBy, agreementWithCi, CALIBRATION_BOOTSTRAP, type AgreementWithCi, type BootstrapOptions } from './calibration-stats.js';
import { loadVariants, materialiseVariant } from '../slots/variants.js';
import type { Judge, VerdictStatus } from './types.js';

/**
 * Calibration: judges run over sites whose right answers are known - each built-in task's reference
 * site (every slot passes) and its broken variants (`tasks/<id>/variants.json`: the edits that break the
 * reference site and the slots that then fail). The probes must score 100% here; a judge model gets accuracy, precision
 * and recall for fail, and Cohen's kappa, each with a task-clustered bootstrap interval, overall, by c_tech and by
 * assertion type (a judge can be good at colours and bad at behaviour).
 */


export interface CalibrationSite {
  taskId: string;
  /** 'reference' or the variant's name in variants.json. */
  variant: string;
  /** Writes the site's files into a folder. */
  build(out: string): Promise<void>;
  expected: Record<string, 'pass' | 'fail'>;
}

export interface CalibrationRow {
  taskId: string;
  variant: string;
  slotId: string;
  cTech: CTech;
  assertionType: AssertionType;
  expected: 'pass' | 'fail';
  got: Record<string, { status: VerdictStatus; evidence: string }>;
}

/** Reference sites and variants of the tasks; throws naming the file when a variants.json is wrong. */
export async function listCalibrationSites(tasks: Task[]): Promise<CalibrationSite[]> {
  const out: CalibrationSite[] = [];
  for (const t of tasks) {
    const site = t.referenceSite;
    if (!site) continue;
    const ids = t.slots.map((s) => s.id);
    out.push({ taskId: t.id, variant: 'reference', build: (dir) => fs.cp(site, dir, { recursive: true }), expected: Object.fromEntries(ids.map((id) => [id, 'pass' as const])) });
    const variants = await loadVariants(path.dirname(site), ids);
    for (const [name, v] of Object.entries(variants).sort(([a], [b]) => a.localeCompare(b))) {
      out.push({
        taskId: t.id,
        variant: name,
        build: (dir) => materialiseVariant(site, name, v, dir),
        expected: Object.fromEntries(ids.map((id) => [id, v.fails.includes(id) ? ('fail' as const) : ('pass' as const)])),
      });
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
  /** Which slots of which site to judge (default: all); a row is made only for selected slots. */
  select?: (site: CalibrationSite, slotId: string) => boolean;
}

const VIEWPORT = { width: 1280, height: 800 };

/**
 * Builds each site into a staging folder (the answers never sit beside the files a judge model can
 * open), serves it, then judges every slot, a few at a time.
 *
 * Each worker keeps one page and resets it between slots (all storage and cookies of the site's origin
 * cleared, viewport restored) instead of opening a fresh context per slot as the benchmark does: a new
 * page costs a renderer process, about half the CPU of a whole probe run. That is safe here because the
 * calibration sites are the project's own (no history tricks, and nothing stored outside the origin); agents'
 * sites always get a fresh context in the benchmark.
 */
export async function runCalibration(req: CalibrationRequest): Promise<CalibrationRow[]> {
  const staging = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-calibration-'));
  const served: ServedSite[] = [];
  const contexts: BrowserContext[] = [];
  try {
    const jobs: Array<(page: Page) => Promise<void>> = [];
    const rows: CalibrationRow[] = [];
    for (const [i, site] of req.sites.entries()) {
      const c = req.cases.find((x) => x.taskId === site.taskId);
      if (!c) throw new Error(`calibration: no case for task ${site.taskId}`);
      const copy = path.join(staging, `${i}-${site.taskId}-${site.variant}`);
      await site.build(copy);
      const server = await serveStatic(copy);
      served.push(server);
      for (const slot of c.slots) {
        if (req.select && !req.select(site, slot.id)) continue;
        const row: CalibrationRow = { taskId: site.taskId, variant: site.variant, slotId: slot.id, cTech: slot.cTech, assertionType: slot.assertionType, expected: site.expected[slot.id]!, got: {} };
        rows.push(row);
        for (const j of req.judges) {
          if (j.slots === 'probed' && !slot.probe) continue;
          jobs.push(async (page) => {
            await resetPage(page, server.url);
            const v = await j.judge.judge({ url: server.url, root: copy, page, browser: req.browser, case: c }, slot);
            row.got[j.key] = { status: v.status, evidence: v.evidence };
          });
        }
      }
    }
    let next = 0;
    const worker = async () => {
      let page: Page | undefined;
      while (next < jobs.length) {
        const job = jobs[next++]!;
        if (!page || page.isClosed()) {
          const ctx = await req.browser.newContext({ viewport: VIEWPORT, serviceWorkers: SERVICE_WORKERS });
          contexts.push(ctx);
          page = await ctx.newPage();
        }
        await job(page);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(req.concurrency ?? 3, jobs.length)) }, worker));
    return rows;
  } finally {
    await Promise.all(contexts.map((c) => c.close().catch(() => {})));
    await Promise.all(served.map((s) => s.close()));
    await fs.rm(staging, { recursive: true, force: true });
  }
}

/**
 * Makes a used page as good as new for the next slot on `siteUrl`: about:blank first, so the last page's
 * unload handlers have run, then the origin's storage of every kind dropped through CDP (the harness
 * runs Chromium only), which needs no navigation to the site itself.
 */
async function resetPage(page: Page, siteUrl: string): Promise<void> {
  await page.goto('about:blank');
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Storage.clearDataForOrigin', { origin: new URL(siteUrl).origin, storageTypes: 'all' });
  } finally {
    await cdp.detach().catch(() => {});
  }
  await page.context().clearCookies();
  await page.setViewportSize(VIEWPORT);
}

/** One judge's agreement with the known answers: overall, by c_tech and by assertion type. */
export interface JudgeCalibration {
  overall: AgreementWithCi;
  byCTech: Partial<Record<'1' | '2' | '3', AgreementWithCi>>;
  byAssertionType: Partial<Record<AssertionType, AgreementWithCi>>;
}

export interface CalibrationSummary {
  probes: { accuracy: number; slots: number };
  /**
   * The judge models' headline figures (point estimates; `stats` has the intervals and breakdowns), over the
   * verdicts the model gave: an errored call (the model was down, its reply never validated) is left out of
   * every figure and counted apart in `errored` ("accuracy 0%" from a model that was down is not a
   * measurement); `slots` counts both. `accuracyJudged` equals `accuracy`, kept for older readers.
   */
  judges: Record<string, { accuracy: number; precisionFail: number | null; recallFail: number | null; kappa: number | null; slots: number; errored: number; accuracyJudged: number | null }>;
  /** Every judge, the probes included, with bootstrap intervals (resampling tasks) and breakdowns. */
  stats: Record<string, JudgeCalibration>;
  bootstrap: BootstrapOptions;
  /** Every verdict that disagrees with its expected answer, for the reader to fix site or judge. */
  misjudged: Array<{ judge: string; taskId: string; variant: string; slotId: string; expected: string; got: string; evidence: string }>;
}

export function summarise(rows: CalibrationRow[], probeKey: string, modelKeys: string[], bootstrap: BootstrapOptions = CALIBRATION_BOOTSTRAP): CalibrationSummary {
  const stats: CalibrationSummary['stats'] = {};
  const erroredCalls: Record<string, number> = {};
  for (const key of [probeKey, ...modelKeys]) {
    // A probe's errored verdict is the harness's own fault and stays a wrong answer (probes must score 100%); a model's is a failed call.
    const isModel = key !== probeKey;
    erroredCalls[key] = isModel ? rows.filter((r) => r.got[key]?.status === 'errored').length : 0;
    const items = rows
      .filter((r) => r.got[key] && !(isModel && r.got[key].status === 'errored'))
      .map((r) => ({ expected: r.expected, got: r.got[key]!.status, cluster: r.taskId, cTech: String(r.cTech) as '1' | '2' | '3', type: r.assertionType }));
    stats[key] = {
      overall: agreementWithCi(items, bootstrap, key),
      byCTech: agreementBy(items.map((i) => ({ ...i, key: i.cTech })), ['1', '2', '3'], bootstrap, `${key}/c_tech`),
      byAssertionType: agreementBy(items.map((i) => ({ ...i, key: i.type })), ['POSITIVE', 'NEGATIVE'], bootstrap, `${key}/type`),
    };
  }
  const judges: CalibrationSummary['judges'] = {};
  for (const k of modelKeys) {
    const a = stats[k]!.overall;
    const errored = erroredCalls[k]!;
    judges[k] = { accuracy: a.accuracy, precisionFail: a.precisionFail, recallFail: a.recallFail, kappa: a.kappa, slots: a.slots + errored, errored: a.errored + errored, accuracyJudged: a.slots > 0 ? a.accuracy : null };
  }
  const misjudged = rows.flatMap((r) =>
    Object.entries(r.got)
      .filter(([, v]) => v.status !== r.expected)
      .map(([judge, v]) => ({ judge, taskId: r.taskId, variant: r.variant, slotId: r.slotId, expected: r.expected, got: v.status, evidence: v.evidence.slice(0, 300) })),
  );
  const probe = stats[probeKey]!.overall;
  return { probes: { accuracy: probe.accuracy, slots: probe.slots }, judges, stats, bootstrap, misjudged };
}
