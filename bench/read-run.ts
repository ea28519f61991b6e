import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ANNOTATION, EpisodeAnnotationSchema, JudgingAnnotationSchema, SlotAnnotationSchema, VerdictAnnotationSchema, type JudgingAnnotation } from '../protocol/annotations.js';
import { ReportSchema } from '../reporters/report-schema.js';
import { dist } from './dist.js';
import { VERDICTS_UP_TO, type RunFigures } from './summary.js';
import { slotPhases } from './slot-phases.js';
import { workerStarts, type TimedResult } from './worker-starts.js';

/** The part of Playwright's JSON report the bench reads. */
const Result = z.looseObject({ duration: z.number(), startTime: z.string(), workerIndex: z.number().optional(), parallelIndex: z.number().optional(), annotations: z.array(z.object({ type: z.string(), description: z.string().optional() })).optional() });
interface Suite {
  suites?: Suite[];
  specs?: Array<{ tests: Array<{ annotations?: Array<{ type: string; description?: string }>; results: unknown[] }> }>;
}

export interface SlotRun {
  caseId: string;
  slotId: string;
  durationMs: number;
  /** Where the slot was judged and how long that took (absent in reports of runs that judged in each slot's test). */
  judging?: JudgingAnnotation;
  timed: TimedResult | null;
  /** The episode's own duration when this test ran it (not read from the cache). */
  ranEpisodeMs: number | null;
  /** The verdict was read from the verdict cache, not judged. */
  cachedVerdict: boolean;
}

function annotation<T>(list: Array<{ type: string; description?: string }>, type: string, schema: z.ZodType<T>): T | undefined {
  const a = list.find((x) => x.type === type);
  if (!a?.description) return undefined;
  const parsed = schema.safeParse(JSON.parse(a.description));
  return parsed.success ? parsed.data : undefined;
}

function slotRuns(suite: Suite, out: SlotRun[]): void {
  for (const s of suite.suites ?? []) slotRuns(s, out);
  for (const spec of suite.specs ?? []) {
    for (const t of spec.tests) {
      for (const raw of t.results) {
        const r = Result.parse(raw);
        const list = [...(t.annotations ?? []), ...(r.annotations ?? [])];
        const slot = annotation(list, ANNOTATION.slot, SlotAnnotationSchema);
        if (!slot) continue;
        const episode = annotation(list, ANNOTATION.episode, EpisodeAnnotationSchema);
        const timed = r.workerIndex !== undefined && r.parallelIndex !== undefined ? { workerIndex: r.workerIndex, parallelIndex: r.parallelIndex, startMs: Date.parse(r.startTime), durationMs: r.duration } : null;
        const verdict = annotation(list, ANNOTATION.verdict, VerdictAnnotationSchema);
        const judging = annotation(list, ANNOTATION.judging, JudgingAnnotationSchema);
        out.push({ caseId: slot.caseId, slotId: slot.slotId, durationMs: r.duration, ...(judging ? { judging } : {}), timed, ranEpisodeMs: episode && !episode.cached ? episode.durationMs : null, cachedVerdict: verdict?.cached === true });
      }
    }
  }
}

async function trajectories(runDir: string): Promise<Array<{ durationMs: number; steps: Array<{ action: string; latencyMs: number }> }>> {
  const out: Array<{ durationMs: number; steps: Array<{ action: string; latencyMs: number }> }> = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (e.isFile() && e.name === 'trajectory.json') {
        const t = JSON.parse(await fs.readFile(path.join(dir, e.name), 'utf8')) as { durationMs: number; steps: Array<{ action: string; latencyMs: number }> };
        out.push(t);
      } else if (e.isDirectory() && depth < 4 && e.name !== 'workspace' && e.name !== 'shots') await walk(path.join(dir, e.name), depth + 1);
    }
  };
  await walk(runDir, 0);
  return out;
}

/**
 * A slot's harness time: its test's time less the episode it ran, if it ran one. A case's first slot test
 * judges the case's other slots too; each of those is given its own judging time, and the judging test keeps
 * only what is left, so the times still add up to the tests' time.
 */
export function slotTimes(runs: SlotRun[]): number[] {
  const judgedElsewhere = (r: SlotRun) => Boolean(r.judging && r.judging.by !== r.slotId);
  return runs.map((r) => {
    // A slot judged elsewhere carries its case's episode annotation too, but only the judging test ran the episode.
    if (judgedElsewhere(r)) return r.durationMs + r.judging!.ms;
    const ahead = runs.filter((o) => o.caseId === r.caseId && judgedElsewhere(o) && o.judging!.by === r.slotId).reduce((sum, o) => sum + o.judging!.ms, 0);
    return Math.max(0, r.durationMs - (r.ranEpisodeMs ?? 0) - ahead);
  });
}

/**
 * Per slot judged: its harness time (slotTimes); a verdict read from the verdict cache was not judged, so it
 * is counted apart and left out of the times. Per verify step and per episode:
 * the trajectories' own timings (zero-latency models, so harness time).
 */
export async function readRunReport(jsonReport: string, runDir: string, iwbReport: string, run: { wallMs: number; workers: number }): Promise<Pick<RunFigures, 'slotsJudged' | 'verdictCacheHits' | 'slotMs' | 'slotPhases' | 'verifyMs' | 'episodeMs' | 'statuses' | 'verdicts' | 'tcr' | 'workerStarts'>> {
  const report = JSON.parse(await fs.readFile(jsonReport, 'utf8')) as { suites: Suite[] };
  const runs: SlotRun[] = [];
  for (const s of report.suites) slotRuns(s, runs);
  const times = slotTimes(runs);
  const judged = runs.filter((r) => !r.cachedVerdict);
  const judgedTimes = times.filter((_, i) => !runs[i]!.cachedVerdict);
  const phases = slotPhases(judged.flatMap((r) => (r.judging ? [r.judging] : [])));
  const ts = await trajectories(runDir);
  const iwb = ReportSchema.parse(JSON.parse(await fs.readFile(iwbReport, 'utf8')));
  const statuses: Record<string, number> = {};
  const verdicts: Record<string, string> = {};
  for (const c of iwb.cases) {
    for (const slot of c.slots) {
      statuses[slot.status] = (statuses[slot.status] ?? 0) + 1;
      verdicts[`${c.id}/${slot.id}`] = slot.status;
    }
  }
  return {
    slotsJudged: judged.length,
    verdictCacheHits: runs.length - judged.length,
    slotMs: dist(judgedTimes),
    ...(phases ? { slotPhases: phases } : {}),
    verifyMs: dist(ts.flatMap((t) => t.steps.filter((s) => s.action === 'verify').map((s) => s.latencyMs))),
    episodeMs: dist(ts.map((t) => t.durationMs)),
    statuses,
    ...(iwb.cases.length <= VERDICTS_UP_TO ? { verdicts: Object.fromEntries(Object.entries(verdicts).sort(([a], [b]) => a.localeCompare(b))) } : {}),
    tcr: iwb.overall.tcr,
    workerStarts: workerStarts(runs.flatMap((r) => (r.timed ? [r.timed] : [])), run.wallMs, run.workers),
  };
}
