import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Trajectory } from '../agent/trajectory.js';
import { fileSafe } from '../protocol/atomic-write.js';
import { caseHref, caseSlug } from './case-href.js';
import { parseTrajectory } from '../agent/trajectory-schema.js';
import type { Case, Degradation } from '../slots/schema.js';
import type { SlotRecord } from './metrics.js';
import type { CaseResult } from './report-schema.js';

/**
 * What one case page shows, gathered from three places: the slot tests' records and attachments (which
 * survive merge-reports), the dataset (instructions, degradation, slot wording), and the episode's run
 * folder (trajectory.json, screenshots) when it is on this machine. Whatever is missing is said on the
 * page, never invented.
 */
export { caseHref, caseSlug };

export interface SlotExtras {
  judge?: string;
  /** Image attachments of the slot test (the LLM judge's labelled screenshots), in order. */
  images: { name: string; path?: string; body?: Buffer }[];
}

export interface CaseView {
  result: CaseResult;
  /** Path of the page relative to the report folder: cases/<slug>.html. */
  href: string;
  /** Folder (relative to the report folder) holding this case's images. */
  assets: string;
  case?: Case;
  degradation?: Degradation;
  records: (SlotRecord & SlotExtras)[];
  trajectory?: Trajectory;
  /** Why there is no trajectory, when there is none. */
  trajectoryNote?: string;
  runFolder?: string;
}

const recordKey = (agent: string, caseId: string, trial: number) => `${agent}\0${caseId}\0${trial}`;

/** Joins the report's cases with their slot records, dataset cases and trajectories. */
export async function gatherCaseViews(
  cases: readonly CaseResult[],
  records: readonly (SlotRecord & SlotExtras)[],
  datasetCases: ReadonlyMap<string, Case> | undefined,
): Promise<CaseView[]> {
  const byCase = new Map<string, (SlotRecord & SlotExtras)[]>();
  for (const r of records) {
    const k = recordKey(r.episode?.agent ?? 'unknown', r.caseId, r.trial ?? 0);
    byCase.set(k, [...(byCase.get(k) ?? []), r]);
  }
  return Promise.all(
    cases.map(async (result) => {
      const recs = byCase.get(recordKey(result.agent, result.id, result.trial)) ?? [];
      const c = datasetCases?.get(result.id);
      const runFolder = recs.find((r) => r.episode?.runFolder)?.episode?.runFolder;
      const slug = caseSlug(result.agent, result.id, result.trial);
      const view: CaseView = { result, href: `cases/${slug}.html`, assets: `cases/${slug}`, records: recs, ...(c ? { case: c } : {}) };
      const d = c?.task.personas[c.persona]?.degradation;
      if (d) view.degradation = d;
      if (!runFolder) view.trajectoryNote = 'no episode was recorded for this case (its episode never ran, or the run predates the case viewer)';
      else {
        view.runFolder = runFolder;
        const file = path.join(runFolder, 'trajectory.json');
        const text = await fs.readFile(file, 'utf8').catch(() => null);
        if (text === null) view.trajectoryNote = `the run folder ${runFolder} is not on this machine (merged from another?): copy it here to see the conversation`;
        else {
          const parsed = parseTrajectory(text, file);
          if (parsed.ok) view.trajectory = parsed.trajectory;
          else view.trajectoryNote = parsed.error;
        }
      }
      return view;
    }),
  );
}

/**
 * Copies a case's images next to its page (verify shots, final page, judge screenshots) and returns
 * their paths relative to the page, so the report folder can be moved or served as it is.
 */
export async function copyCaseAssets(view: CaseView, reportDir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const dir = path.join(reportDir, view.assets);
  const rel = (name: string) => `${path.basename(view.assets)}/${name}`;
  let made = false;
  const put = async (key: string, name: string, from: { path?: string; body?: Buffer }) => {
    if (!made) await fs.mkdir(dir, { recursive: true });
    made = true;
    const target = path.join(dir, name);
    const ok = from.body ? await fs.writeFile(target, from.body).then(() => true) : from.path ? await fs.copyFile(from.path, target).then(() => true, () => false) : false;
    if (ok) out.set(key, rel(name));
  };
  if (view.runFolder && view.trajectory) {
    for (const step of view.trajectory.steps) {
      if (step.screenshot) await put(`step:${step.index}`, `step-${step.index}.png`, { path: path.join(view.runFolder, step.screenshot) });
      for (const [i, turn] of (step.audit?.turns ?? []).entries()) {
        if (turn.frame) await put(`audit:${step.index}:${i}`, `audit-${step.index}-${i}.png`, { path: path.join(view.runFolder, turn.frame) });
      }
    }
    await put('final', 'final.png', { path: path.join(view.runFolder, 'final.png') });
    await put('stderr', 'agent-stderr.log', { path: path.join(view.runFolder, 'agent-stderr.log') });
  }
  for (const r of view.records) {
    for (const [i, img] of r.images.entries()) await put(`slot:${r.slotId}:${i}`, `judge-${fileSafe(r.slotId)}-${i}.png`, img);
  }
  return out;
}
