import type { Aggregate } from './metrics.js';
import type { Report } from './report.js';

const pct = (x: number | null): string => (x === null ? '—' : (x * 100).toFixed(1));

function rows(title: string, groups: Record<string, Aggregate>): string[][] {
  return Object.entries(groups).map(([k, a]) => [title === '' ? k : `${title} ${k}`, pct(a.tcr), pct(a.hr), pct(a.sr), pct(a.vbr), String(a.cases), String(a.judgedSlots), String(a.unjudgedSlots), String(a.erroredSlots)]);
}

const HEADER = ['group', 'TCR %', 'HR %', 'SR %', 'VBR %', 'cases', 'judged', 'unjudged', 'errored'];

/** The report as a plain-text table for the terminal, and the same rows as Markdown for report.md. */
export function reportTable(r: Report): string[][] {
  return [
    ['overall', pct(r.overall.tcr), pct(r.overall.hr), pct(r.overall.sr), pct(r.overall.vbr), String(r.overall.cases), String(r.overall.judgedSlots), String(r.overall.unjudgedSlots), String(r.overall.erroredSlots)],
    ...rows('', r.byPersona),
    ...rows('', r.byDifficulty),
    ...(Object.keys(r.byAgent).length > 1 ? rows('agent', r.byAgent) : []),
  ];
}

export function formatText(r: Report): string {
  const table = [HEADER, ...reportTable(r)];
  const widths = HEADER.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  const line = (row: string[]) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  return [
    `InteractWeb-Bench: ${r.overall.cases} cases, agent ${r.meta.agents.join(', ') || 'unknown'}, dataset ${r.meta.dataset}`,
    line(table[0]!),
    ...table.slice(1).map(line),
    ...(r.injectionFlaggedCases.length ? [`pages that addressed the judge (check by hand): ${r.injectionFlaggedCases.join(', ')}`] : []),
    `episodes: ${r.episodes.ranThisRun} run now, ${r.episodes.fromCache} from cache; ${Object.entries(r.episodes.byStatus).map(([k, v]) => `${k} ${v}`).join(', ')}`,
  ].join('\n');
}

export function formatMarkdown(r: Report): string {
  const md = (row: string[]) => `| ${row.join(' | ')} |`;
  const pd = Object.entries(r.byPersonaDifficulty).map(([k, a]) => [k, pct(a.tcr), pct(a.hr), String(a.cases)]);
  return [
    '# InteractWeb-Bench report',
    '',
    `Dataset \`${r.meta.dataset}\`, agent ${r.meta.agents.map((a) => `\`${a}\``).join(', ')}, ${r.overall.cases} cases, started ${r.meta.startedAt}.`,
    '',
    md(HEADER),
    md(HEADER.map(() => '---')),
    ...reportTable(r).map(md),
    '',
    '## By persona and difficulty',
    '',
    md(['persona/difficulty', 'TCR %', 'HR %', 'cases']),
    md(['---', '---', '---', '---']),
    ...pd.map(md),
    '',
    'TCR: passed POSITIVE weight over judged POSITIVE weight, mean over cases. HR: share of cases in which a judged NEGATIVE slot failed. SR: share of cases in which every judged slot passed. Unjudged and errored slots are left out of all three and counted apart.',
    '',
  ].join('\n');
}
