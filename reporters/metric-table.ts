import type { Profile, ProfileName } from '../config/profiles.js';
import { PROFILES } from '../config/profiles.js';
import type { CaseResult } from './case-result.js';

/**
 * Every aggregate metric of a report, one row each: report.json's fields, the per-case value its mean is
 * taken over, the Markdown and terminal tables, the summary page's cards and docs/metrics.md's definitions all
 * read this table. Adding a metric is one row here plus, where it needs one, a per-case field in metrics.ts.
 */
export interface MetricRow {
  key: string;
  /** Short name in tables and cards. */
  title: string;
  /** A share (shown in percent) or a plain number. */
  unit: 'percent' | 'number';
  /** Decimals when printed (in percent for shares). */
  digits: number;
  /** The per-case value, as docs/metrics.md states it. */
  definition: string;
  /** What a case needs for the metric to be defined on it (empty: every judged case). */
  needs: string;
  /** The per-case value the aggregate averages over the cases where it is not null. */
  value: (c: CaseResult) => number | null;
  /**
   * A pooled figure instead of a mean: the aggregate is the sum of the numerators over the sum of the
   * denominators of the cases where this is not null (long episodes weigh more, as the paper counts).
   */
  pool?: (c: CaseResult) => readonly [number, number] | null;
  /** Where it is shown besides report.json and the full Markdown table. */
  show: { terminal?: boolean; markdown?: boolean; card?: string };
  /**
   * One of two readings of a figure: it is the headline (terminal column, summary card) only under the
   * profiles whose rules match; the full Markdown table and report.json carry both readings always.
   */
  headlineWhen?: Partial<Pick<Profile, 'vci'>>;
}

const rate = (b: boolean | null): number | null => (b === null ? null : b ? 1 : 0);
const ratio = (p: readonly [number, number] | null): number | null => (p && p[1] > 0 ? p[0] / p[1] : null);
/** The paper's script divides by its code turns: a reply that wrote code alongside another action counts twice. */
const paperStepPair = (c: CaseResult): readonly [number, number] | null =>
  c.verifySteps === null || c.implementSteps === null ? null : [c.verifySteps, c.implementSteps + 2 * (c.codeAlongsideSteps ?? 0)];
/** Slots of a case that match, over all its slots (null for a case without slots). */
const slotShare = (c: CaseResult, hit: (s: CaseResult['slots'][number]) => boolean): readonly [number, number] | null =>
  c.slots.length === 0 ? null : [c.slots.filter(hit).length, c.slots.length];
const erroredOrUnmentioned = (c: CaseResult) => slotShare(c, (s) => s.status === 'errored' || s.unmentioned === true);
const unmentioned = (c: CaseResult) => slotShare(c, (s) => s.unmentioned === true);

export const METRICS = [
  { key: 'tcr', title: 'TCR', unit: 'percent', digits: 1, definition: 'passed POSITIVE weight / judged POSITIVE weight', needs: '', value: (c) => c.tcr, show: { terminal: true, markdown: true, card: 'task completion (weighted POSITIVE slots)' } },
  { key: 'tcrRaw', title: 'raw TCR', unit: 'percent', digits: 1, definition: 'passed weight / judged weight over all slots, NEGATIVE included', needs: '', value: (c) => c.tcrRaw, show: { markdown: true } },
  { key: 'tcrUniform', title: 'TCR (uniform)', unit: 'percent', digits: 1, definition: 'TCR with every slot weighing 1 (weight sensitivity)', needs: '', value: (c) => c.tcrUniform, show: {} },
  { key: 'tcrCTech', title: 'TCR (c_tech)', unit: 'percent', digits: 1, definition: 'TCR with each slot weighing its c_tech alone (weight sensitivity)', needs: '', value: (c) => c.tcrCTech, show: {} },
  { key: 'hr', title: 'HR', unit: 'percent', digits: 1, definition: '1 if a judged NEGATIVE slot failed, else 0 (for a case with any judged slot)', needs: '', value: (c) => rate(c.hallucinated), show: { terminal: true, markdown: true, card: 'cases with a failed NEGATIVE slot' } },
  { key: 'sr', title: 'SR', unit: 'percent', digits: 1, definition: '1 if every judged slot passed', needs: '', value: (c) => rate(c.sr), show: { terminal: true, markdown: true, card: 'cases with every judged slot passed' } },
  { key: 'chr', title: 'CHR', unit: 'percent', digits: 1, definition: "share of the case's slots that some question hit, from the simulated user's retrieval record (the slots it retrieved to answer); as the paper counts it", needs: 'a question', value: (c) => c.chr, show: { terminal: true, markdown: true, card: 'slots some question hit' } },
  { key: 'chrDegraded', title: 'CHR-deg', unit: 'percent', digits: 1, definition: 'the same over the slots the persona degraded (left out, blurred, contradicted): the sharper figure, where the dataset records the degradation', needs: 'a question, a degradation record', value: (c) => c.chrDegraded, show: { markdown: true } },
  { key: 'chrLlm', title: 'CHR (LLM)', unit: 'percent', digits: 1, definition: "the paper's variant: the judge model marks per slot whether some question hit it; hit slots / all slots", needs: 'a question, a judge model', value: (c) => c.chrLlm, show: { markdown: true } },
  { key: 'ias', title: 'IAS', unit: 'number', digits: 2, definition: "1-5, the judge model's reading of the agent's trace (each step's reasoning, each question and its answer; not its code, as in the paper) against the gold instruction and the persona's distortion, bounded per step and in all (judge/intent-trace.ts); a trajectory with no reasoning text and no question is scored 1 under `paper` (as the paper does) and not scored under `iwb`, and the judge model is not asked about it", needs: 'judge model (or, under `paper`, a trajectory without reasoning)', value: (c) => c.ias, show: { markdown: true } },
  { key: 'vci', title: 'VCI', unit: 'number', digits: 2, definition: 'verify steps / implement steps, averaged over cases (the headline under `iwb`)', needs: 'an implement step', value: (c) => c.vci, show: { terminal: true, markdown: true, card: 'verify steps per implement step (mean of cases)' }, headlineWhen: { vci: 'per-case-mean' } },
  { key: 'vciPooled', title: 'VCI (pooled)', unit: 'number', digits: 2, definition: "the paper's VCI: verify steps / code steps, each summed over the cases before dividing, where a step that wrote files alongside a question, verify or submit counts twice among the code steps, as the paper's script counts it (the headline under `paper`)", needs: 'a code step in the group', value: (c) => c.vci, pool: paperStepPair, show: { terminal: true, markdown: true, card: 'verify steps per implement step (pooled)' }, headlineWhen: { vci: 'pooled' } },
  { key: 'pcr', title: 'PCR', unit: 'percent', digits: 1, definition: '1 if a question came before the first code', needs: '', value: (c) => rate(c.questionBeforeCode), show: { terminal: true, markdown: true, card: 'cases that asked before coding' } },
  { key: 'blindRate', title: 'blind', unit: 'percent', digits: 1, definition: 'the episode had no question and no verify step (`blindCases` counts them)', needs: '', value: (c) => rate(c.blind), show: { markdown: true } },
  { key: 'vbr', title: 'VBR', unit: 'percent', digits: 1, definition: '1 if the final page fails a deterministic visual check (horizontal overflow, overlapping text, broken images, console errors, blank or unreachable page); with a judge model the page is also scored 1-5', needs: '', value: (c) => rate(c.visualBug), show: { terminal: true, markdown: true, card: 'final pages with a visual bug' } },
  { key: 'submitRate', title: 'submit', unit: 'percent', digits: 1, definition: '1 if the agent submitted (rather than hitting the step cap, a verification deadlock or failing); an errored episode is left out of this and every behaviour figure', needs: '', value: (c) => rate(c.submitted), show: { markdown: true } },
  { key: 'linesOfCode', title: 'LOC', unit: 'number', digits: 0, definition: 'non-blank lines of the final source files (HTML, CSS, JS/TS, JSON, Vue, Svelte), build output and package-lock.json left out', needs: '', value: (c) => c.linesOfCode, show: { markdown: true } },
  { key: 'locPaper', title: 'LOC (paper)', unit: 'number', digits: 0, definition: "the paper's LOC: every line of every final file except under node_modules, dist and .next and package-lock.json", needs: 'an episode recorded with it', value: (c) => c.locPaper, show: { markdown: true } },
  { key: 'askRate', title: 'ask', unit: 'percent', digits: 1, definition: '1 if the agent asked at least one question (the paper reports it)', needs: '', value: (c) => (c.questions === null ? null : c.questions > 0 ? 1 : 0), show: { markdown: true } },
  { key: 'questions', title: 'questions', unit: 'number', digits: 2, definition: 'questions the agent asked (the mean is the paper\'s average questions)', needs: '', value: (c) => c.questions, show: { markdown: true } },
  { key: 'visualLayout', title: 'layout', unit: 'number', digits: 2, definition: "the judge model's 1-5 layout score of the final page", needs: 'judge model', value: (c) => c.visualScores?.layout ?? null, show: { markdown: true } },
  { key: 'visualCreative', title: 'creative', unit: 'number', digits: 2, definition: "the judge model's 1-5 creative alignment score of the final page (does it fit the request's intent)", needs: 'judge model', value: (c) => c.visualScores?.creativeAlignment ?? null, show: { markdown: true } },
  { key: 'visualOverall', title: 'visual', unit: 'number', digits: 2, definition: "the judge model's 1-5 overall visual score of the final page", needs: 'judge model', value: (c) => c.visualScores?.overall ?? null, show: { markdown: true } },
  { key: 'slotsErroredOrUnmentioned', title: 'errored/unmentioned', unit: 'percent', digits: 1, definition: 'slots errored or never given a verdict by the judge (marked `unmentioned`, whatever status the profile gave them) / all slots, pooled over cases', needs: '', value: (c) => ratio(erroredOrUnmentioned(c)), pool: erroredOrUnmentioned, show: { markdown: true } },
  { key: 'slotsUnmentioned', title: 'unmentioned', unit: 'percent', digits: 1, definition: 'slots the judge never gave a verdict for (failed under `paper`, errored under `iwb`) / all slots, pooled over cases', needs: '', value: (c) => ratio(unmentioned(c)), pool: unmentioned, show: { markdown: true } },
  { key: 'steps', title: 'steps', unit: 'number', digits: 2, definition: 'steps the episode took', needs: '', value: (c) => c.steps, show: { markdown: true } },
] as const satisfies readonly MetricRow[];

export type MetricKey = (typeof METRICS)[number]['key'];
/** The rows with their literal keys but a uniform shape, for code that walks the table. */
export const METRIC_ROWS: readonly (MetricRow & { key: MetricKey })[] = METRICS;
export const METRIC_KEYS: readonly MetricKey[] = METRIC_ROWS.map((m) => m.key);
export const METRIC = Object.fromEntries(METRIC_ROWS.map((m) => [m.key, m])) as Record<MetricKey, MetricRow>;

/** Whether a row is a headline under a profile (a report without one was scored under iwb). */
export function isHeadline(m: MetricRow, profile: string | undefined): boolean {
  if (!m.headlineWhen) return true;
  const rules: Profile = PROFILES[(profile && profile in PROFILES ? profile : 'iwb') as ProfileName];
  return Object.entries(m.headlineWhen).every(([rule, value]) => rules[rule as keyof Profile] === value);
}

/** The rows a headline place (terminal table, summary cards) shows under a profile. */
export function headlineRows(place: 'terminal' | 'card', profile: string | undefined): readonly (MetricRow & { key: MetricKey })[] {
  return METRIC_ROWS.filter((m) => Boolean(m.show[place]) && isHeadline(m, profile));
}

/** A table column title: the metric's name, with `%` for shares. */
export const columnTitle = (m: MetricRow): string => (m.unit === 'percent' ? `${m.title} %` : m.title);

/** docs/metrics.md's table, generated from the rows (test/one-home.test.ts checks the page carries it unchanged). */
export function metricsMarkdown(): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  return [
    '| metric | report key | per case | needs |',
    '| --- | --- | --- | --- |',
    ...METRIC_ROWS.map((m) => `| **${m.title}** | \`${m.key}\` | ${esc(m.definition)} | ${esc(m.needs)} |`),
  ].join('\n');
}
