import { aggregate, caseResults, groupBy, type Aggregate, type CaseResult, type SlotRecord } from './metrics.js';

export interface RunMeta {
  startedAt: string;
  durationMs: number;
  dataset: string;
  agents: string[];
  playwrightStatus: string;
}

export interface Report {
  schemaVersion: 1;
  meta: RunMeta;
  overall: Aggregate;
  byPersona: Record<string, Aggregate>;
  byDifficulty: Record<string, Aggregate>;
  byPersonaDifficulty: Record<string, Aggregate>;
  byAgent: Record<string, Aggregate>;
  episodes: { total: number; ranThisRun: number; fromCache: number; byStatus: Record<string, number> };
  /** Cases whose pages addressed the judge: read their verdicts by hand before trusting them. */
  injectionFlaggedCases: string[];
  cases: CaseResult[];
}

/** The whole report from slot records: pure, so a merged (sharded) run and a single run agree. */
export function buildReport(records: readonly SlotRecord[], meta: RunMeta): Report {
  const sorted = [...records].sort((a, b) => a.caseId.localeCompare(b.caseId) || a.slotId.localeCompare(b.slotId, undefined, { numeric: true }));
  const cases = caseResults(sorted);
  const byStatus: Record<string, number> = {};
  for (const c of cases) byStatus[c.episodeStatus] = (byStatus[c.episodeStatus] ?? 0) + 1;
  return {
    schemaVersion: 1,
    meta,
    overall: aggregate(cases),
    byPersona: groupBy(cases, (c) => c.persona),
    byDifficulty: groupBy(cases, (c) => c.difficulty),
    byPersonaDifficulty: groupBy(cases, (c) => `${c.persona}/${c.difficulty}`),
    byAgent: groupBy(cases, (c) => c.agent),
    episodes: {
      total: cases.length,
      ranThisRun: cases.filter((c) => c.episodeCached === false).length,
      fromCache: cases.filter((c) => c.episodeCached === true).length,
      byStatus,
    },
    injectionFlaggedCases: cases.filter((c) => c.injectionFlagged).map((c) => c.id),
    cases,
  };
}
