import path from 'node:path';
import { CASE_VALUE } from './aggregate.js';
import type { Aggregate, CaseResult, Report } from './report-schema.js';
import { bootstrapMeans, DEFAULT_BOOTSTRAP, kendallTauB, seedOf, type BootstrapOptions } from '../stats/intervals.js';

/**
 * The leaderboard behind `iwb compare`: one row per (run, agent), ranked by a metric, and for each pair of
 * neighbours whether the data separate them. Pure, so the CLI and its tests see the same figures.
 */

export const COMPARE_METRICS = ['tcr', 'hr', 'sr'] as const;
export type CompareMetric = (typeof COMPARE_METRICS)[number];

/** HR counts hallucinating cases: fewer is better, so it ranks ascending. */
const LOWER_IS_BETTER: Record<CompareMetric, boolean> = { tcr: false, hr: true, sr: false };

export interface RunInput {
  /** The path the report was read from, as given. */
  file: string;
  report: Report;
}

type Interval = [number, number] | null;

export interface LeaderboardRow {
  label: string;
  run: string;
  file: string;
  agent: string;
  /** Competition rank by the metric (ties share a rank); null when the metric is undefined for the row. */
  rank: number | null;
  tcr: number | null;
  tcrCi: Interval;
  hr: number | null;
  hrCi: Interval;
  sr: number | null;
  srCi: Interval;
  chr: number | null;
  pcr: number | null;
  vbr: number | null;
  cases: number;
  costUsd: number | null;
}

export interface PairResult {
  /** Row labels, `a` ranked just above `b`. */
  a: string;
  b: string;
  /** a minus b: over shared cases when paired, else the difference of the two means. */
  diff: number | null;
  /** Paired bootstrap interval of the difference; null when the rows share no case. */
  ci: Interval;
  shared: number;
  method: 'paired' | 'overlap' | 'none';
  separable: boolean;
}

export interface Comparison {
  metric: CompareMetric;
  rows: LeaderboardRow[];
  pairs: PairResult[];
  /** Kendall tau-b over every row between the paper-weighted TCR ranking and the other weightings. */
  kendallTau: { uniform: number | null; cTech: number | null };
}

/**
 * Reports scored under different profiles (config/profiles.ts) follow different verdict and metric rules,
 * so their figures do not rank against each other. Returns why, or null when every report shares one
 * profile (a report older than profiles counts as iwb).
 */
export function profileMismatch(runs: readonly RunInput[]): string | null {
  const byProfile = new Map<string, string[]>();
  for (const r of runs) {
    const profile = r.report.meta.profile ?? 'iwb';
    byProfile.set(profile, [...(byProfile.get(profile) ?? []), r.file]);
  }
  if (byProfile.size < 2) return null;
  const listed = [...byProfile].map(([p, files]) => `${p}: ${files.join(', ')}`).join('; ');
  return `the reports were scored under different profiles (${listed}); their verdict and metric rules differ (crash rule, unmentioned slots, pooled VCI), so their figures are not comparable`;
}

/**
 * A short name per report: its folder for `<dir>/report.json`, else its file name. Runs that would share
 * a name (two `iwb-report/report.json`) keep their paths, so no two rows read alike.
 */
export function runLabels(files: readonly string[]): string[] {
  const short = files.map((f) => (path.basename(f) === 'report.json' ? path.basename(path.dirname(path.resolve(f))) : path.basename(f, '.json')));
  const named = short.map((s, i) => (short.filter((x) => x === s).length > 1 ? files[i]! : s));
  return named.map((s, i) => (named.filter((x) => x === s).length > 1 ? `${s} (${i + 1})` : s));
}

/**
 * The mean of a - b over the cases both rows scored (same case id and trial), with a percentile bootstrap
 * interval. Cases are resampled with all their trials, as the report's own intervals are, and a case's
 * a and b values move together: that pairing is what lets two close agents on the same cases be told apart.
 */
export function pairedDifference(
  a: readonly CaseResult[],
  b: readonly CaseResult[],
  value: (c: CaseResult) => number | null,
  opts: BootstrapOptions,
): { diff: number | null; ci: Interval; shared: number } {
  const other = new Map(b.map((c) => [`${c.id}\0${c.trial}`, value(c)]));
  const byCase = new Map<string, number[]>();
  for (const c of a) {
    const va = value(c);
    const vb = other.get(`${c.id}\0${c.trial}`);
    if (va === null || vb === null || vb === undefined) continue;
    byCase.set(c.id, [...(byCase.get(c.id) ?? []), va - vb]);
  }
  const clusters = [...byCase.values()];
  const diffs = clusters.flat();
  if (diffs.length === 0) return { diff: null, ci: null, shared: 0 };
  const [ci] = bootstrapMeans([clusters], clusters.length, opts);
  return { diff: diffs.reduce((s, d) => s + d, 0) / diffs.length, ci: ci ?? null, shared: diffs.length };
}

interface Entry {
  row: LeaderboardRow;
  agg: Aggregate;
  cases: CaseResult[];
  paper: number | null;
  uniform: number | null;
  cTech: number | null;
}

export function compareRuns(runs: readonly RunInput[], opts: { metric?: CompareMetric; bootstrap?: BootstrapOptions } = {}): Comparison {
  const metric = opts.metric ?? 'tcr';
  const boot = opts.bootstrap ?? DEFAULT_BOOTSTRAP;
  const labels = runLabels(runs.map((r) => r.file));
  const entries: Entry[] = runs.flatMap(({ file, report }, i) =>
    Object.entries(report.byAgent).map(([agent, agg]) => {
      const w = report.weightSensitivity.tcr[agent];
      return {
        row: {
          label: `${agent} @ ${labels[i]!}`, run: labels[i]!, file, agent, rank: null,
          tcr: agg.tcr, tcrCi: agg.ci.tcr, hr: agg.hr, hrCi: agg.ci.hr, sr: agg.sr, srCi: agg.ci.sr,
          chr: agg.chr, pcr: agg.pcr, vbr: agg.vbr, cases: agg.cases, costUsd: agg.costUsd,
        },
        agg,
        cases: report.cases.filter((c) => c.agent === agent),
        paper: w?.paper ?? null,
        uniform: w?.uniform ?? null,
        cTech: w?.cTech ?? null,
      };
    }),
  );
  const sign = LOWER_IS_BETTER[metric] ? 1 : -1;
  // Rows the metric does not apply to go last: an undefined score is not a low one.
  entries.sort((x, y) => {
    const [a, b] = [x.agg[metric], y.agg[metric]];
    if (a === null || b === null) return (a === null ? 1 : 0) - (b === null ? 1 : 0) || x.row.label.localeCompare(y.row.label);
    return sign * (a - b) || x.row.label.localeCompare(y.row.label);
  });
  for (const e of entries) {
    const v = e.agg[metric];
    if (v !== null) e.row.rank = 1 + entries.filter((o) => o.agg[metric] !== null && sign * (o.agg[metric]! - v) < 0).length;
  }
  const pairs = entries.slice(1).map((b, i) => pair(entries[i]!, b, metric, boot));
  const scored = entries.filter((e) => e.paper !== null && e.uniform !== null && e.cTech !== null);
  const tau = (w: 'uniform' | 'cTech') => (scored.length < 2 ? null : kendallTauB(scored.map((e) => e.paper!), scored.map((e) => e[w]!)));
  return { metric, rows: entries.map((e) => e.row), pairs, kendallTau: { uniform: tau('uniform'), cTech: tau('cTech') } };
}

function pair(a: Entry, b: Entry, metric: CompareMetric, boot: BootstrapOptions): PairResult {
  const names = { a: a.row.label, b: b.row.label };
  const paired = pairedDifference(a.cases, b.cases, CASE_VALUE[metric], { ...boot, seed: seedOf(`${names.a}\0${names.b}`, boot.seed) });
  if (paired.shared > 0) {
    const ci = paired.ci;
    return { ...names, ...paired, method: 'paired', separable: ci !== null && (ci[0] > 0 || ci[1] < 0) };
  }
  const [va, vb] = [a.agg[metric], b.agg[metric]];
  if (va === null || vb === null) return { ...names, diff: null, ci: null, shared: 0, method: 'none', separable: false };
  // Without common cases only the two unpaired intervals are left: separable when they do not overlap.
  const [ia, ib] = [a.agg.ci[metric], b.agg.ci[metric]];
  const separable = ia !== null && ib !== null && (ia[1] < ib[0] || ib[1] < ia[0]);
  return { ...names, diff: va - vb, ci: null, shared: 0, method: 'overlap', separable };
}
