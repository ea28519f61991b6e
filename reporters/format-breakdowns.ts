import { fmt } from './fmt.js';
import type { Report } from './report-schema.js';

/**
 * The breakdown tables (split, category, WebGen-Bench test category) as plain text cells, so report.md and
 * the summary page print the same rows.
 */
export interface TextTable {
  title: string;
  header: string[];
  rows: string[][];
  note?: string;
}

const pctCi = (v: number | null, ci: [number, number] | null, signed = false) =>
  v === null ? '—' : `${signed && v > 0 ? '+' : ''}${(v * 100).toFixed(1)}${ci ? ` [${(ci[0] * 100).toFixed(1)}, ${(ci[1] * 100).toFixed(1)}]` : ''}`;

export function breakdownTables(r: Report): TextTable[] {
  const b = r.breakdowns;
  if (!b) return [];
  const out: TextTable[] = [];
  const splits = Object.entries(b.bySplit);
  if (splits.length) {
    const rows = splits.map(([k, a]) => [k === 'holdout' ? 'hold-out' : k, fmt(a, 'tcr', true), fmt(a, 'hr', true), fmt(a, 'sr', true), String(a.cases)]);
    const d = b.splitDifference;
    if (d) rows.push(['dev − hold-out', pctCi(d.tcr.difference, d.tcr.ci, true), pctCi(d.hr.difference, d.hr.ci, true), '', '']);
    out.push({
      title: 'Dev and hold-out',
      header: ['split', 'TCR %', 'HR %', 'SR %', 'cases'],
      rows,
      note: d ? 'The difference row: dev minus hold-out, with a bootstrap interval resampling each part on its own; an interval away from 0 suggests over-fitting to dev.' : 'Only one split ran (IWB_SPLIT); run both to compare.',
    });
  }
  const cats = Object.entries(b.byCategory);
  if (cats.length) out.push({ title: 'By primary category', header: ['category', 'TCR %', 'HR %', 'SR %', 'cases'], rows: cats.map(([k, a]) => [k, fmt(a, 'tcr', true), fmt(a, 'hr', true), fmt(a, 'sr', true), String(a.cases)]) });
  const tests = Object.entries(b.byTestCategory);
  if (tests.length) {
    out.push({
      title: 'By WebGen-Bench test category',
      header: ['test category', 'TCR %', 'cases', 'slots'],
      rows: tests.map(([k, t]) => [k, pctCi(t.tcr, t.ci), String(t.cases), String(t.slots)]),
      note: 'TCR over the POSITIVE slots decomposed from UI tests of that category (NEGATIVE slots have none).',
    });
  }
  return out;
}

export function breakdownMarkdown(r: Report): string[] {
  const md = (row: readonly string[]) => `| ${row.join(' | ')} |`;
  return breakdownTables(r).flatMap((t) => [`## ${t.title}`, '', md(t.header), md(t.header.map(() => '---')), ...t.rows.map(md), ...(t.note ? ['', t.note] : []), '']);
}
