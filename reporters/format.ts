import { breakdownMarkdown } from './format-breakdowns.js';
import { weakerIsolationLine } from '../sandbox/enforced.js';
import { costCell, costUnknownWhy, fmt, tokensText } from './fmt.js';
import { columnTitle, headlineRows, METRIC_ROWS, type MetricKey } from './metric-table.js';
import type { Aggregate, Report } from './report-schema.js';
import { describeRoleErrors } from './role-errors.js';
import { inReadingOrder } from './group-order.js';

export { fmt } from './fmt.js';

/** The terminal's columns: the headline rows of the report's profile (one reading of VCI, not both). */
const columnsOf = (r: Report) => headlineRows('terminal', r.meta.profile).map((m) => ({ key: m.key, title: columnTitle(m) }));

function terminalRows(r: Report): string[][] {
  const columns = columnsOf(r);
  const row = (name: string, a: Aggregate) => [name, ...columns.map((c) => fmt(a, c.key)), String(a.cases), String(a.unjudgedSlots), String(a.erroredSlots)];
  return [
    row('overall', r.overall),
    ...inReadingOrder(r.byPersona).map(([k, a]) => row(k, a)),
    ...inReadingOrder(r.byDifficulty).map(([k, a]) => row(k, a)),
    ...(Object.keys(r.byAgent).length > 1 ? Object.entries(r.byAgent).map(([k, a]) => row(`agent ${k}`, a)) : []),
  ];
}

export function formatText(r: Report): string {
  const header = ['group', ...columnsOf(r).map((c) => c.title), 'cases', 'unjudged', 'errored'];
  const table = [header, ...terminalRows(r)];
  const widths = header.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  const line = (row: string[]) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  const tcrCi = r.overall.ci.tcr;
  return [
    `InteractWeb-Bench: ${r.overall.cases} cases, agent ${r.meta.agents.join(', ') || 'unknown'}, dataset ${r.meta.dataset}`,
    line(table[0]!),
    ...table.slice(1).map(line),
    `TCR ${fmt(r.overall, 'tcr')}% (95% CI ${tcrCi ? `${(tcrCi[0] * 100).toFixed(1)}-${(tcrCi[1] * 100).toFixed(1)}` : '—'}; ${erroredNote(r.overall)}); blind executions ${r.overall.blindCases}/${r.overall.cases}; ${usageLine(r.overall)}`,
    ...(r.injectionFlaggedCases.length ? [`pages that addressed the judge (check by hand): ${r.injectionFlaggedCases.join(', ')}`] : []),
    ...roleErrorLines(r),
    `episodes: ${episodeOrigins(r.episodes)}; ${Object.entries(r.episodes.byStatus).map(([k, v]) => `${k} ${v}`).join(', ')}`,
  ].join('\n');
}

/** Errored cases beside every headline figure: they are left out of the rates, never silently. */
function erroredNote(a: Aggregate): string {
  // Slots the judge never mentioned are failed under paper and errored under iwb: either way a reader should see how many.
  const unmentioned = a.slotsUnmentioned ? `; ${fmt(a, 'slotsUnmentioned')}% of slots never mentioned by the judge` : '';
  return `${a.erroredCases} errored case(s) and ${a.erroredSlots} errored slot(s) left out${unmentioned}`;
}

function roleErrorLines(r: Report): string[] {
  const lines = describeRoleErrors(r.roleErrors);
  return lines.length ? ['WARNING: some figures rest on failed model calls (report.json roleErrors):', ...lines.map((l) => `  ${l}`)] : [];
}

function usageLine(a: Aggregate): string {
  const roles = Object.entries(a.usage);
  if (roles.length === 0) return 'no model tokens';
  const cost = a.costUsd === null ? `cost unknown (${costUnknownWhy(a)})` : `$${a.costUsd.toFixed(4)}`;
  return `${roles.map(([role, u]) => `${role} ${tokensText(u)} tok`).join(', ')}; ${cost}`;
}

const md = (row: readonly string[]) => `| ${row.join(' | ')} |`;
const table = (header: readonly string[], rows: readonly string[][]) => [md(header), md(header.map(() => '---')), ...rows.map(md)];

/** report.md: shaped like the paper's tables (models as rows, personas as column groups), then the rest. */
export function formatMarkdown(r: Report): string {
  const personas = inReadingOrder(r.byPersona).map(([k]) => k);
  const difficulties = inReadingOrder(r.byDifficulty).map(([k]) => k);
  const agents = Object.entries(r.byAgent);
  const cell = (group: Record<string, Aggregate>, key: string, k: MetricKey) => (group[key] ? fmt(group[key]!, k, true) : '—');
  const all = METRIC_ROWS.filter((m) => m.show.markdown).map((m) => ({ key: m.key, title: columnTitle(m) }));
  const weaker = weakerIsolationLine(r.meta.sandbox);
  return [
    ...(weaker ? [`**${weaker}** (meta.sandbox in report.json)`, ''] : []),
    '# InteractWeb-Bench report',
    '',
    `Profile \`${r.meta.profile ?? 'iwb'}\` (scoring rules, config/profiles.ts). Dataset \`${r.meta.dataset}\`, agent ${r.meta.agents.map((a) => `\`${a}\``).join(', ')}${r.meta.user ? `, simulated user \`${r.meta.user}\`` : ''}, ${r.overall.cases} cases, started ${r.meta.startedAt}${r.meta.sandbox ? `, untrusted processes isolated by: ${typeof r.meta.sandbox === 'string' ? r.meta.sandbox : `${r.meta.sandbox.isolation} (judged browser: ${r.meta.sandbox.browser})`}` : ''}. Intervals: ${Math.round(r.meta.bootstrap.level * 100)}% percentile bootstrap over cases, ${r.meta.bootstrap.resamples} resamples, seed ${r.meta.bootstrap.seed}.`,
    '',
    `Errored (left out of every rate): ${erroredNote(r.overall)}.`,
    '',
    `Model use: ${usageLine(r.overall)}.`,
    ...(describeRoleErrors(r.roleErrors).length ? ['', '**Some figures rest on failed model calls:**', '', ...describeRoleErrors(r.roleErrors).map((l) => `- ${l}`)] : []),
    '',
    '## TCR and HR by persona',
    '',
    ...table(
      ['agent', ...personas.flatMap((p) => [`${p} TCR %`, `${p} HR %`]), 'avg TCR %', 'avg HR %'],
      agents.map(([agent, a]) => [agent, ...personas.flatMap((p) => [cell(r.byAgentPersona, `${agent}/${p}`, 'tcr'), cell(r.byAgentPersona, `${agent}/${p}`, 'hr')]), fmt(a, 'tcr', true), fmt(a, 'hr', true)]),
    ),
    '',
    '## TCR by difficulty',
    '',
    ...table(['agent', ...difficulties.map((d) => `${d} TCR %`)], agents.map(([agent]) => [agent, ...difficulties.map((d) => cell(r.byAgentDifficulty, `${agent}/${d}`, 'tcr'))])),
    '',
    '## Every metric',
    '',
    ...table(
      ['group', ...all.map((c) => c.title), 'cases', 'unjudged', 'errored', 'cost $'],
      [['overall', r.overall] as const, ...agents.map(([k, a]) => [`agent ${k}`, a] as const), ...inReadingOrder(r.byPersona), ...inReadingOrder(r.byDifficulty)].map(([name, a]) => [
        name, ...all.map((c) => fmt(a, c.key)), String(a.cases), String(a.unjudgedSlots), String(a.erroredSlots), costCell(a.costUsd),
      ]),
    ),
    '',
    '## By persona and difficulty',
    '',
    ...table(['persona/difficulty', 'TCR %', 'HR %', 'cases'], inReadingOrder(r.byPersonaDifficulty).map(([k, a]) => [k, fmt(a, 'tcr', true), fmt(a, 'hr', true), String(a.cases)])),
    '',
    '## Weight sensitivity',
    '',
    ...table(['agent', 'TCR % (paper weights)', 'TCR % (uniform)', 'TCR % (c_tech only)'], Object.entries(r.weightSensitivity.tcr).map(([agent, w]) => [agent, ...(['paper', 'uniform', 'cTech'] as const).map((k) => (w[k] === null ? '—' : (w[k]! * 100).toFixed(1)))])),
    '',
    `Kendall tau-b of the agent ranking, paper weights against uniform: ${tau(r.weightSensitivity.kendallTau.uniform)}; against c_tech only: ${tau(r.weightSensitivity.kendallTau.cTech)}.`,
    '',
    '## pass^k',
    '',
    ...table(['agent', 'k', 'pass^k'], Object.entries(r.passK).flatMap(([agent, ks]) => Object.entries(ks).map(([k, v]) => [agent, k, v.toFixed(3)]))),
    '',
    ...breakdownMarkdown(r),
    'Definitions: see docs/metrics.md (each figure is defined once in reporters/metrics.ts and reporters/aggregate.ts). Unjudged and errored slots are left out of every rate and counted apart.',
    '',
  ].join('\n');
}

const tau = (t: number | null) => (t === null ? '— (needs 2 agents)' : t.toFixed(3));

/** Where the episodes came from; those without an episode record are counted as unknown, never as run or cached. */
export function episodeOrigins(e: Report['episodes']): string {
  const unknown = e.total - e.ranThisRun - e.fromCache;
  return `${e.ranThisRun} ran, ${e.fromCache} from cache${unknown > 0 ? `, ${unknown} unknown (no episode record)` : ''}`;
}
