import type { CaseResult } from './case-result.js';

/**
 * Every aggregate metric of a report, one row each: report.json's fields, the per-case value its mean is
 * taken over, the Markdown and terminal tables, the summary page's cards and the README's definitions all
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
  /** The per-case value, as the README states it. */
  definition: string;
  /** What a case needs for the metric to be defined on it (empty: every judged case). */
  needs: string;
  /** The per-case value the aggregate averages over the cases where it is not null. */
  value: (c: CaseResult) => number | null;
  /** Where it is shown besides report.json and the full Markdown table. */
  show: { terminal?: boolean; markdown?: boolean; card?: string };
}

const rate = (b: boolean | null): number | null => (b === null ? null : b ? 1 : 0);

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
  { key: 'ias', title: 'IAS', unit: 'number', digits: 2, definition: "1-5, the judge model's reading of the trajectory and final files against the gold instruction", needs: 'judge model', value: (c) => c.ias, show: { markdown: true } },
  { key: 'vci', title: 'VCI', unit: 'number', digits: 2, definition: 'verify steps / implement steps', needs: 'an implement step', value: (c) => c.vci, show: { terminal: true, markdown: true, card: 'verify steps per implement step' } },
  { key: 'pcr', title: 'PCR', unit: 'percent', digits: 1, definition: '1 if a question came before the first code', needs: '', value: (c) => rate(c.questionBeforeCode), show: { terminal: true, markdown: true, card: 'cases that asked before coding' } },
  { key: 'blindRate', title: 'blind', unit: 'percent', digits: 1, definition: 'the episode had no question and no verify step (`blindCases` counts them)', needs: '', value: (c) => rate(c.blind), show: { markdown: true } },
  { key: 'vbr', title: 'VBR', unit: 'percent', digits: 1, definition: '1 if the final page fails a deterministic visual check (horizontal overflow, overlapping text, broken images, console errors, blank or unreachable page); with a judge model the page is also scored 1-5', needs: '', value: (c) => rate(c.visualBug), show: { terminal: true, markdown: true, card: 'final pages with a visual bug' } },
  { key: 'submitRate', title: 'submit', unit: 'percent', digits: 1, definition: '1 if the agent submitted (rather than hitting the step cap, a verification deadlock or erroring)', needs: '', value: (c) => rate(c.submitted), show: { markdown: true } },
  { key: 'linesOfCode', title: 'LOC', unit: 'number', digits: 0, definition: 'lines of code of the final workspace', needs: '', value: (c) => c.linesOfCode, show: { markdown: true } },
  { key: 'askRate', title: 'ask', unit: 'percent', digits: 1, definition: '1 if the agent asked at least one question (the paper reports it)', needs: '', value: (c) => (c.questions === null ? null : c.questions > 0 ? 1 : 0), show: { markdown: true } },
  { key: 'questions', title: 'questions', unit: 'number', digits: 2, definition: 'questions the agent asked (the mean is the paper\'s average questions)', needs: '', value: (c) => c.questions, show: { markdown: true } },
  { key: 'steps', title: 'steps', unit: 'number', digits: 2, definition: 'steps the episode took', needs: '', value: (c) => c.steps, show: { markdown: true } },
] as const satisfies readonly MetricRow[];

export type MetricKey = (typeof METRICS)[number]['key'];
/** The rows with their literal keys but a uniform shape, for code that walks the table. */
export const METRIC_ROWS: readonly (MetricRow & { key: MetricKey })[] = METRICS;
export const METRIC_KEYS: readonly MetricKey[] = METRIC_ROWS.map((m) => m.key);
export const METRIC = Object.fromEntries(METRIC_ROWS.map((m) => [m.key, m])) as Record<MetricKey, MetricRow>;

/** A table column title: the metric's name, with `%` for shares. */
export const columnTitle = (m: MetricRow): string => (m.unit === 'percent' ? `${m.title} %` : m.title);

/** The README's metric table, generated from the rows (a test checks the README carries it unchanged). */
export function metricsMarkdown(): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  return [
    '| metric | report key | per case | needs |',
    '| --- | --- | --- | --- |',
    ...METRIC_ROWS.map((m) => `| **${m.title}** | \`${m.key}\` | ${esc(m.definition)} | ${esc(m.needs)} |`),
  ].join('\n');
}
