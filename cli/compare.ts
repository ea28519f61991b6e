import { promises as fs } from 'node:fs';
import path from 'node:path';
import { COMPARE_METRICS, compareRuns, profileMismatch, type CompareMetric, type Comparison, type LeaderboardRow, type RunInput } from '../reporters/compare.js';
import { readReport } from '../reporters/report-schema.js';
import { DEFAULT_BOOTSTRAP } from '../stats/intervals.js';
import { parseCommand, usageOf } from './commands.js';
import { UsageError, type CliIo } from './io.js';
import { costCell } from '../reporters/fmt.js';
import { runLoss } from '../reporters/run-health.js';
import { judgeLoss } from '../stats/lost-input.js';
import { maxErroredOf } from './max-errored.js';

const USAGE = usageOf('compare');

/**
 * `iwb compare`: a leaderboard over runs, with the neighbours the data cannot tell apart marked. Exit 2
 * when a report does not read, naming the file and the field, so a stale or hand-edited report is never
 * ranked on half its figures.
 */
export async function compareCommand(args: string[], io: CliIo): Promise<number> {
  const { positional, flags } = parseCommand(args, 'compare');
  if (positional.length === 0) throw new UsageError(USAGE);
  const html = flags.get('html');
  if (html !== undefined && positional.length !== 2) throw new UsageError(`--html compares two runs (A B), got ${positional.length}\n${USAGE}`);
  const metric = String(flags.get('metric') ?? 'tcr');
  if (!isMetric(metric)) throw new UsageError(`--metric must be one of ${COMPARE_METRICS.join(', ')}\n${USAGE}`);
  const tolerance = maxErroredOf(flags);
  const runs: RunInput[] = [];
  for (const given of positional) {
    // A report folder (iwb-report/) is as good as its report.json: that is what a run leaves behind.
    const file = (await fs.stat(given).catch(() => null))?.isDirectory() ? path.join(given, 'report.json') : given;
    try {
      runs.push({ file, report: await readReport(file) });
    } catch (e) {
      io.err(`iwb compare: ${(e as Error).message}`);
      return 2;
    }
  }
  const mismatch = profileMismatch(runs);
  if (mismatch && !flags.has('mixed')) {
    io.err(`iwb compare: ${mismatch}. Re-score under one profile, or pass --mixed to rank them anyway.`);
    return 2;
  }
  if (mismatch) io.err(`iwb compare: warning (--mixed): ${mismatch}.`);
  const result = compareRuns(runs, { metric });
  // Each run's figures by the one rule (stats/lost-input.ts): a leaderboard row that lost input is named, and fails the command past the tolerance.
  const losses = runs.map((r) => ({ file: r.file, ...judgeLoss(runLoss(r.report), tolerance) }));
  const lossLines = losses.flatMap((l) => (l.line ? [`${l.file}: ${l.line}`] : []));
  io.out(flags.has('json') ? JSON.stringify({ ...result, lostInput: losses.map(({ file, ok, share, line }) => ({ file, ok, erroredShare: share, ...(line ? { line } : {}) })) }, null, 2) : [describe(result, runs.length), ...(lossLines.length ? ['', ...lossLines] : [])].join('\n'));
  if (typeof html === 'string') {
    const { renderComparePage } = await import('../reporters/compare-html.js');
    await fs.mkdir(path.dirname(path.resolve(html)), { recursive: true });
    await fs.writeFile(html, renderComparePage(runs[0]!, runs[1]!, html));
    io.err(`iwb compare: run A vs run B written to ${html}`);
  }
  const lost = losses.filter((l) => !l.ok);
  for (const l of lost) io.err(`iwb compare: ${l.file}: ${l.line}`);
  return lost.length ? 1 : 0;
}

const isMetric = (m: string): m is CompareMetric => (COMPARE_METRICS as readonly string[]).includes(m);

const pct = (v: number | null) => (v === null ? '—' : (v * 100).toFixed(1));
const withCi = (v: number | null, ci: [number, number] | null) => (v === null ? '—' : ci ? `${pct(v)} [${pct(ci[0])}, ${pct(ci[1])}]` : pct(v));
const signed = (v: number) => `${v >= 0 ? '+' : ''}${(v * 100).toFixed(1)}`;

function describe(c: Comparison, reports: number): string {
  const name = c.metric.toUpperCase();
  const level = `${Math.round(DEFAULT_BOOTSTRAP.level * 100)}%`;
  const close = new Set(c.pairs.filter((p) => !p.separable).map((p) => p.b));
  const header = ['', 'rank', 'agent', 'run', `TCR % [${level} CI]`, `HR % [${level} CI]`, 'SR %', 'CHR %', 'PCR %', 'VBR %', 'cases', 'cost $'];
  const cells = (r: LeaderboardRow) => [
    close.has(r.label) ? '≈' : '',
    r.rank === null ? '—' : String(r.rank),
    r.agent,
    r.run,
    withCi(r.tcr, r.tcrCi),
    withCi(r.hr, r.hrCi),
    pct(r.sr),
    pct(r.chr),
    pct(r.pcr),
    pct(r.vbr),
    String(r.cases),
    costCell(r.costUsd),
  ];
  const table = [header, ...c.rows.map(cells)];
  const widths = header.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  const line = (row: string[]) => row.map((cell, i) => (i >= 4 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ').trimEnd();
  const pairs = c.pairs.map((p) => {
    const verdict = p.separable ? 'separable' : '≈ not separable';
    if (p.method === 'paired') return `  ${p.a} − ${p.b}: ${signed(p.diff!)} [${signed(p.ci![0])}, ${signed(p.ci![1])}] over ${p.shared} shared cases: ${verdict}`;
    if (p.method === 'overlap') return `  ${p.a} − ${p.b}: ${signed(p.diff!)}, no shared cases, intervals ${p.separable ? 'apart' : 'overlap'}: ${verdict}`;
    return `  ${p.a} − ${p.b}: ${name} undefined for one of them: ${verdict}`;
  });
  const tau = (t: number | null) => (t === null ? '— (needs 2 rows)' : t.toFixed(3));
  return [
    `iwb compare: ${c.rows.length} rows from ${reports} report${reports === 1 ? '' : 's'}, ranked by ${name} (${c.metric === 'hr' ? 'lower' : 'higher'} is better)`,
    ...table.map(line),
    ...(pairs.length ? ['', `neighbours, ${name} difference in points (paired bootstrap over the cases both ran, same case id and trial):`, ...pairs] : []),
    ...(close.size
      ? [`≈ marks a row the data do not separate from the one above: the ${level} interval of their ${name} difference contains 0 (without shared cases: their intervals overlap).`]
      : []),
    '',
    `Kendall tau-b of the ranking by TCR, paper weights against uniform: ${tau(c.kendallTau.uniform)}; against c_tech only: ${tau(c.kendallTau.cTech)}.`,
  ].join('\n');
}
