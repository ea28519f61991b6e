import { PROFILES, type ProfileName } from '../config/profiles.js';
import type { PriceTable } from '../llm/usage.js';
import { aggregate, groupBy } from './aggregate.js';
import { breakdowns } from './breakdowns.js';
import { roleErrors } from './role-errors.js';
import { caseResults, type CaseResult, type SlotRecord } from './metrics.js';
import type { Report, Weighting } from './report-schema.js';
import type { RunMeta } from './run-records.js';
import { DEFAULT_BOOTSTRAP, kendallTauB, passHatK, type BootstrapOptions } from '../stats/intervals.js';

export type { Report } from './report-schema.js';

export type { RunMeta } from './run-records.js';

/** The run-wide facts the episodes carry: which user answered, where degradation records came from. */
export function episodeMeta(records: readonly SlotRecord[]): Pick<RunMeta, 'user' | 'degradation'> {
  const join = (values: Array<string | undefined>) => [...new Set(values.filter((v): v is string => Boolean(v)))].sort().join(', ');
  const user = join(records.map((r) => r.episode?.user));
  const degradation = join(records.map((r) => r.episode?.degradationSource));
  return { ...(user ? { user } : {}), ...(degradation ? { degradation } : {}) };
}

export interface ReportOptions {
  prices?: PriceTable;
  bootstrap?: BootstrapOptions;
}

/** The whole report from slot records: pure, so a merged (sharded) run and a single run agree. */
export function buildReport(records: readonly SlotRecord[], meta: RunMeta, opts: ReportOptions = {}): Report {
  const sorted = [...records].sort(
    (a, b) =>
      a.caseId.localeCompare(b.caseId) ||
      (a.episode?.agent ?? '').localeCompare(b.episode?.agent ?? '') ||
      (a.trial ?? 0) - (b.trial ?? 0) ||
      a.slotId.localeCompare(b.slotId, undefined, { numeric: true }),
  );
  const cases = caseResults(sorted, PROFILES[(meta.profile ?? 'iwb') as ProfileName] ?? PROFILES.iwb);
  const bootstrap = opts.bootstrap ?? DEFAULT_BOOTSTRAP;
  const agg = { bootstrap, ...(opts.prices ? { prices: opts.prices } : {}) };
  const byStatus: Record<string, number> = {};
  for (const c of cases) byStatus[c.episodeStatus] = (byStatus[c.episodeStatus] ?? 0) + 1;
  return {
    schemaVersion: 2,
    meta: { ...meta, bootstrap },
    overall: aggregate(cases, agg),
    byPersona: groupBy(cases, (c) => c.persona, { ...agg, group: 'persona' }),
    byDifficulty: groupBy(cases, (c) => c.difficulty, { ...agg, group: 'difficulty' }),
    byPersonaDifficulty: groupBy(cases, (c) => `${c.persona}/${c.difficulty}`, { ...agg, group: 'persona-difficulty' }),
    byAgent: groupBy(cases, (c) => c.agent, { ...agg, group: 'agent' }),
    byAgentPersona: groupBy(cases, (c) => `${c.agent}/${c.persona}`, { ...agg, group: 'agent-persona' }),
    byAgentDifficulty: groupBy(cases, (c) => `${c.agent}/${c.difficulty}`, { ...agg, group: 'agent-difficulty' }),
    passK: passKByAgent(cases),
    weightSensitivity: weightSensitivity(cases),
    episodes: {
      total: cases.length,
      ranThisRun: cases.filter((c) => c.episodeCached === false).length,
      fromCache: cases.filter((c) => c.episodeCached === true).length,
      byStatus,
    },
    injectionFlaggedCases: [...new Set(cases.filter((c) => c.injectionFlagged).map((c) => c.id))],
    breakdowns: breakdowns(sorted, cases, agg),
    roleErrors: roleErrors(sorted),
    cases,
  };
}

/** Success is SR (every judged slot passed); k runs from 1 to the fewest trials any case of the agent has. */
export function passKByAgent(cases: readonly CaseResult[]): Report['passK'] {
  const out: Report['passK'] = {};
  for (const agent of [...new Set(cases.map((c) => c.agent))].sort()) {
    const byCase = new Map<string, { n: number; successes: number }>();
    for (const c of cases.filter((x) => x.agent === agent && x.sr !== null)) {
      const t = byCase.get(c.id) ?? { n: 0, successes: 0 };
      byCase.set(c.id, { n: t.n + 1, successes: t.successes + (c.sr ? 1 : 0) });
    }
    const trials = [...byCase.values()];
    if (trials.length === 0) continue;
    const kMax = Math.min(...trials.map((t) => t.n));
    out[agent] = Object.fromEntries(Array.from({ length: kMax }, (_, i) => [String(i + 1), passHatK(trials, i + 1)!]));
  }
  return out;
}

const WEIGHTINGS: Record<Weighting, (c: CaseResult) => number | null> = { paper: (c) => c.tcr, uniform: (c) => c.tcrUniform, cTech: (c) => c.tcrCTech };

/** TCR per agent under three weightings, and whether the agents' ranking survives a change of weights. */
export function weightSensitivity(cases: readonly CaseResult[]): Report['weightSensitivity'] {
  const agents = [...new Set(cases.map((c) => c.agent))].sort();
  const tcr: Report['weightSensitivity']['tcr'] = {};
  for (const a of agents) {
    const mine = cases.filter((c) => c.agent === a);
    tcr[a] = Object.fromEntries(
      Object.entries(WEIGHTINGS).map(([w, f]) => {
        const v = mine.map(f).filter((x): x is number => x !== null);
        return [w, v.length ? v.reduce((s, x) => s + x, 0) / v.length : null];
      }),
    ) as Record<Weighting, number | null>;
  }
  const scored = agents.filter((a) => Object.values(tcr[a]!).every((v) => v !== null));
  const tau = (w: Weighting) => (scored.length < 2 ? null : kendallTauB(scored.map((a) => tcr[a]!.paper!), scored.map((a) => tcr[a]![w]!)));
  return { tcr, kendallTau: { uniform: tau('uniform'), cTech: tau('cTech') } };
}
