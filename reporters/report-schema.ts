import { promises as fs } from 'node:fs';
import { z } from 'zod';
import { SandboxEnforcedSchema } from '../sandbox/enforced.js';
import { CaseResultSchema } from './case-result.js';
import { METRIC_KEYS, type MetricKey } from './metric-table.js';

/**
 * The report.json contract, version 2. Every aggregate figure is one row of reporters/metric-table.ts (its
 * per-case value comes from reporters/metrics.ts); this file only says their shape, so `iwb compare`, the HTML
 * summary and a researcher's notebook read a report the way the reporter wrote it.
 */

const rate = z.number().nullable();
const interval = z.tuple([z.number(), z.number()]).nullable();
// A metric row added after a report was written reads back as undefined (null, no interval, on 0 cases).
const metricValue = rate.default(null);
const metricInterval = interval.default(null);
const metricN = z.number().default(0);

export { SlotStatusSchema } from '../protocol/enums.js';
export { CaseResultSchema, type CaseResult } from './case-result.js';
export { METRIC_KEYS, type MetricKey } from './metric-table.js';

/** Null tokens: some call's provider gave no usage object, so the role's tokens (and cost) are unknown, not zero. */
const RoleCostSchema = z.object({ prompt: z.number().nullable(), completion: z.number().nullable(), costUsd: z.number().nullable() });

export const AggregateSchema = z.object({
  ...Object.fromEntries(METRIC_KEYS.map((k) => [k, metricValue])) as Record<MetricKey, typeof metricValue>,
  /** 95% percentile bootstrap interval per metric, resampling cases (all trials of a case together). */
  ci: z.object(Object.fromEntries(METRIC_KEYS.map((k) => [k, metricInterval])) as Record<MetricKey, typeof metricInterval>),
  /** How many cases each metric was defined on (a metric is null on a case it does not apply to). */
  n: z.object(Object.fromEntries(METRIC_KEYS.map((k) => [k, metricN])) as Record<MetricKey, typeof metricN>),
  cases: z.number(),
  blindCases: z.number(),
  judgedSlots: z.number(),
  unjudgedSlots: z.number(),
  erroredSlots: z.number(),
  erroredCases: z.number(),
  /** Tokens and cost per model role; costUsd is null when a model it used has no price (IWB_PRICES). */
  usage: z.record(z.string(), RoleCostSchema),
  costUsd: z.number().nullable(),
});
export type Aggregate = z.infer<typeof AggregateSchema>;

const SplitDifferenceSchema = z.object({ dev: rate, holdout: rate, difference: rate, ci: interval });

/** Breakdowns by split, primary category and WebGen-Bench test category (reporters/breakdowns.ts). */
export const BreakdownsSchema = z.object({
  /** Present when the run's cases carry a split; `splitDifference` (dev minus hold-out) when both ran. */
  bySplit: z.record(z.string(), AggregateSchema),
  splitDifference: z.object({ tcr: SplitDifferenceSchema, hr: SplitDifferenceSchema }).nullable(),
  byCategory: z.record(z.string(), AggregateSchema),
  /** TCR over the POSITIVE slots of one WebGen-Bench test category, per case, averaged over cases that have one. */
  byTestCategory: z.record(z.string(), z.object({ tcr: rate, ci: interval, cases: z.number(), slots: z.number() })),
});
export type Breakdowns = z.infer<typeof BreakdownsSchema>;

export const WeightingSchema = z.enum(['paper', 'uniform', 'cTech']);
export type Weighting = z.infer<typeof WeightingSchema>;

export const ReportSchema = z.object({
  schemaVersion: z.literal(2),
  meta: z.object({
    startedAt: z.string(),
    durationMs: z.number(),
    dataset: z.string(),
    agents: z.array(z.string()),
    playwrightStatus: z.string(),
    /** The rule set the run was scored under (IWB_PROFILE, config/profiles.ts); absent in older reports = iwb. */
    profile: z.string().optional(),
    /** Which simulated user answered (IWB_USER): contained or paper. */
    user: z.string().optional(),
    /** Where the degradation records behind CHR-degraded came from. */
    degradation: z.string().optional(),
    /** What the run enforced on untrusted code (sandbox/enforced.ts); older reports hold only the isolations, as a string. */
    sandbox: z.union([SandboxEnforcedSchema, z.string()]).optional(),
    bootstrap: z.object({ resamples: z.number(), seed: z.number(), level: z.number() }),
    /** Set when the run covered less than the dataset (a --project or --grep filter) or was interrupted. */
    /** The first error of the run (an errored episode or slot), so a run that broke says how. */
    firstError: z.string().optional(),
    partial: z.object({ casesRun: z.number(), casesInDataset: z.number().nullable(), interrupted: z.boolean(), reason: z.string() }).optional(),
    /** Set when `iwb report` scored the run again from its kept slot records (cli/report.ts). */
    rescored: z.object({ at: z.string(), from: z.string(), runProfile: z.string(), note: z.string().optional() }).optional(),
  }),
  overall: AggregateSchema,
  byPersona: z.record(z.string(), AggregateSchema),
  byDifficulty: z.record(z.string(), AggregateSchema),
  byPersonaDifficulty: z.record(z.string(), AggregateSchema),
  byAgent: z.record(z.string(), AggregateSchema),
  byAgentPersona: z.record(z.string(), AggregateSchema),
  byAgentDifficulty: z.record(z.string(), AggregateSchema),
  /** pass^k over trials (tau-bench): per agent, k = 1..fewest trials any of its cases has. */
  passK: z.record(z.string(), z.record(z.string(), z.number())),
  weightSensitivity: z.object({
    /** TCR per agent under each weighting. */
    tcr: z.record(z.string(), z.record(WeightingSchema, rate)),
    /** Kendall tau-b between the agent rankings of the paper's weights and each other weighting; null under 2 agents. */
    kendallTau: z.object({ uniform: z.number().nullable(), cTech: z.number().nullable() }),
  }),
  episodes: z.object({ total: z.number(), ranThisRun: z.number(), fromCache: z.number(), byStatus: z.record(z.string(), z.number()) }),
  injectionFlaggedCases: z.array(z.string()),
  /** Optional so reports written before it still read back. */
  breakdowns: BreakdownsSchema.optional(),
  /** Failed model calls per role that change what is measured (reporters/role-errors.ts); absent in older reports. */
  roleErrors: z.record(z.string(), z.object({ count: z.number(), messages: z.array(z.string()), affects: z.string() })).default({}),
  cases: z.array(CaseResultSchema),
});
export type Report = z.infer<typeof ReportSchema>;

/** Reads a report back, with an error that names the file and the first field that does not fit. */
export async function readReport(file: string): Promise<Report> {
  const text = await fs.readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
    throw new Error(`${file}: cannot read the report (${e.code ?? e.message})`);
  });
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new Error(`${file}: not valid JSON (${(e as Error).message})`, { cause: e });
  }
  const parsed = ReportSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${file}: field ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return parsed.data;
}
