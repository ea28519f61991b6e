import path from 'node:path';
import { DIFFICULTIES, PERSONAS } from '../slots/schema.js';
import { caseHref } from './case-view.js';
import { pairedDifference, runLabels, type RunInput } from './compare.js';
import { fmt } from './fmt.js';
import { caseStatus, esc, SUMMARY_STYLE } from './html-summary.js';
import { headlineRows, METRIC, type MetricKey } from './metric-table.js';
import type { Aggregate, CaseResult, Report } from './report-schema.js';
import { DEFAULT_BOOTSTRAP, seedOf } from '../stats/intervals.js';

/**
 * `iwb compare A B --html out.html`: run A against run B on one page. The headline figures of each with
 * their intervals, the paired difference B − A over the cases both ran (per persona and difficulty too),
 * and every case whose slots changed status, linked to its case page in both report folders. Pure apart
 * from the paths it is given, so a test renders it from two report.json fixtures.
 */

type Interval = [number, number] | null;

export interface Flip {
  key: string;
  a: CaseResult | undefined;
  b: CaseResult | undefined;
  /** Slots whose status differs, `id: a → b` (a slot missing on one side reads `—`). */
  slots: { id: string; a: string; b: string }[];
}

/**
 * Cases are paired by id and trial. When both runs hold the same several agents, the agent is part of the
 * pair too (one comparison per agent); otherwise one run's agent is set against the other's.
 */
export function pairKey(a: Report, b: Report): (c: CaseResult) => string {
  const agents = (r: Report) => [...new Set(r.cases.map((c) => c.agent))].sort().join('\0');
  const byAgent = agents(a) === agents(b) && new Set(a.cases.map((c) => c.agent)).size > 1;
  return (c) => `${byAgent ? `${c.agent}\0` : ''}${c.id}`;
}
const trialKey = (key: (c: CaseResult) => string) => (c: CaseResult) => `${key(c)}\0${c.trial}`;

/** The cases whose slot statuses (or presence) differ between the runs, in A's order, then B's new ones. */
export function flippedCases(a: Report, b: Report): Flip[] {
  const key = trialKey(pairKey(a, b));
  const inB = new Map(b.cases.map((c) => [key(c), c]));
  const inA = new Map(a.cases.map((c) => [key(c), c]));
  const flips: Flip[] = [];
  for (const k of [...inA.keys(), ...[...inB.keys()].filter((x) => !inA.has(x))]) {
    const [ca, cb] = [inA.get(k), inB.get(k)];
    const ids = [...new Set([...(ca?.slots ?? []), ...(cb?.slots ?? [])].map((s) => s.id))];
    const status = (c: CaseResult | undefined, id: string) => c?.slots.find((s) => s.id === id)?.status ?? '—';
    const slots = ids.filter((id) => status(ca, id) !== status(cb, id)).map((id) => ({ id, a: status(ca, id), b: status(cb, id) }));
    if (slots.length > 0 || !ca || !cb) flips.push({ key: k, a: ca, b: cb, slots });
  }
  return flips;
}

function paired(a: readonly CaseResult[], b: readonly CaseResult[], k: MetricKey, key: (c: CaseResult) => string, seedName: string) {
  // pairedDifference pairs by id and trial (and resamples a case's trials together); the key decides which cases face each other.
  const as = a.map((c) => ({ ...c, id: key(c) }));
  const bs = b.map((c) => ({ ...c, id: key(c) }));
  return pairedDifference(bs, as, METRIC[k].value, { ...DEFAULT_BOOTSTRAP, seed: seedOf(seedName, DEFAULT_BOOTSTRAP.seed) });
}

function scaled(k: MetricKey, v: number | null, signed = false): string {
  if (v === null) return '—';
  const m = METRIC[k];
  const s = (v * (m.unit === 'percent' ? 100 : 1)).toFixed(m.digits);
  return signed && v >= 0 ? `+${s}` : s;
}
const diffCell = (k: MetricKey, d: { diff: number | null; ci: Interval; shared: number }) => {
  if (d.diff === null) return '<td class="num">— (no shared case)</td>';
  const apart = d.ci !== null && (d.ci[0] > 0 || d.ci[1] < 0);
  const ci = d.ci ? ` [${scaled(k, d.ci[0], true)}, ${scaled(k, d.ci[1], true)}]` : '';
  return `<td class="num${apart ? (d.diff > 0 ? ' up' : ' down') : ''}" title="${apart ? 'the interval excludes 0' : 'the interval contains 0: not separable'}">${esc(scaled(k, d.diff, true) + ci)}</td>`;
};
const aggCell = (a: Aggregate | undefined, k: MetricKey) => `<td class="num">${a ? esc(fmt(a, k, true)) : '—'}</td>`;

function headlineTable(a: Report, b: Report, key: (c: CaseResult) => string): string {
  const rows = headlineRows('terminal', a.meta.profile).map((m) => {
    const d = paired(a.cases, b.cases, m.key, key, `headline\0${m.key}`);
    return `<tr><th>${esc(m.title)}${m.unit === 'percent' ? ' %' : ''}</th>${aggCell(a.overall, m.key)}${aggCell(b.overall, m.key)}${diffCell(m.key, d)}<td class="num">${d.shared}</td></tr>`;
  });
  return `<table><thead><tr><th>metric</th><th>A [95% CI]</th><th>B [95% CI]</th><th>B − A, paired [95% CI]</th><th>shared cases</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function groupTable(a: Report, b: Report, key: (c: CaseResult) => string, by: 'persona' | 'difficulty'): string {
  const groups: readonly string[] = by === 'persona' ? PERSONAS : DIFFICULTIES;
  const aggs = (r: Report) => (by === 'persona' ? r.byPersona : r.byDifficulty);
  const rows = groups
    .filter((g) => aggs(a)[g] || aggs(b)[g])
    .map((g) => {
      const [ca, cb] = [a.cases.filter((c) => c[by] === g), b.cases.filter((c) => c[by] === g)];
      const cells = (['tcr', 'hr'] as const).map((k) => `${aggCell(aggs(a)[g], k)}${aggCell(aggs(b)[g], k)}${diffCell(k, paired(ca, cb, k, key, `${by}\0${g}\0${k}`))}`);
      return `<tr><th>${esc(g)}</th>${cells.join('')}</tr>`;
    });
  return `<table><thead><tr><th>${by}</th><th>TCR % A</th><th>TCR % B</th><th>TCR B − A</th><th>HR % A</th><th>HR % B</th><th>HR B − A</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** A link from the page to a case page inside a run's report folder, relative so the folders can move together. */
function caseLink(reportFile: string, outFile: string, c: CaseResult | undefined, label: string): string {
  if (!c) return `<span class="empty">not in ${label}</span>`;
  const target = path.join(path.dirname(path.resolve(reportFile)), caseHref(c));
  const href = path.relative(path.dirname(path.resolve(outFile)), target).split(path.sep).join('/');
  return `<a href="${esc(href)}">${esc(label)}: ${esc(caseStatus(c))}, TCR ${c.tcr === null ? '—' : (c.tcr * 100).toFixed(1)}</a>`;
}

function flipTable(a: RunInput, b: RunInput, out: string): string {
  const flips = flippedCases(a.report, b.report);
  if (flips.length === 0) return '<p class="empty">No case changed: every slot of every shared case has the same status in both runs.</p>';
  const rows = flips.map((f) => {
    const c = (f.a ?? f.b)!;
    const slots = f.slots.map((s) => `<span class="flip"><b>${esc(s.id)}</b> <span class="slot ${esc(s.a)}">${esc(s.a)}</span>→<span class="slot ${esc(s.b)}">${esc(s.b)}</span></span>`).join(' ');
    return `<tr><td>${esc(c.id)}${c.trial ? ` (trial ${c.trial})` : ''}</td><td>${esc(c.persona)}</td><td>${esc(c.difficulty)}</td><td>${caseLink(a.file, out, f.a, 'A')}</td><td>${caseLink(b.file, out, f.b, 'B')}</td><td>${slots || '—'}</td></tr>`;
  });
  // A case one run lacks changed nothing: it is counted apart, never as flipped slots.
  const shared = flips.filter((f) => f.a && f.b);
  const slotCount = shared.reduce((s, f) => s + f.slots.length, 0);
  const onlyA = flips.filter((f) => !f.b).length;
  const onlyB = flips.filter((f) => !f.a).length;
  const apart = onlyA + onlyB > 0 ? ` Not in both runs, listed below without a change: ${onlyA} case(s) only in A, ${onlyB} only in B.` : '';
  return `<p class="meta">${shared.length} shared case(s), ${slotCount} slot(s) changed status.${apart}</p><table class="flips"><thead><tr><th>case</th><th>persona</th><th>difficulty</th><th>run A</th><th>run B</th><th>slots A → B</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

const runLine = (name: string, label: string, r: RunInput) => {
  const m = r.report.meta;
  return `<li><b>${name}</b> ${esc(label)} (${esc(r.file)}): agent ${esc(m.agents.join(', ') || 'unknown')} · profile ${esc(m.profile ?? 'iwb')} · dataset ${esc(m.dataset)} · ${r.report.overall.cases} cases · ${esc(m.startedAt)}${m.partial ? ` · partial: ${esc(m.partial.reason)}` : ''}</li>`;
};

export function renderComparePage(a: RunInput, b: RunInput, out: string): string {
  const [la, lb] = runLabels([a.file, b.file]) as [string, string];
  const key = pairKey(a.report, b.report);
  const level = `${Math.round(DEFAULT_BOOTSTRAP.level * 100)}%`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>InteractWeb-Bench: ${esc(la)} vs ${esc(lb)}</title><style>${SUMMARY_STYLE}
.num{text-align:right;white-space:nowrap}.up{background:#dafbe1}.down{background:#ffebe9}.flip{white-space:nowrap;margin-right:8px}</style></head><body>
<h1>Run A vs run B</h1>
<ul class="meta">${runLine('A', la, a)}${runLine('B', lb, b)}</ul>
<h2>Headline figures</h2>
${headlineTable(a.report, b.report, key)}
<p class="meta">Each run's figure with its own ${level} bootstrap interval; B − A is the mean over the cases both ran of B's value minus A's (paired by case id and trial), with a ${level} paired bootstrap interval. Green or red: the interval excludes 0.</p>
<h2>By persona</h2>
${groupTable(a.report, b.report, key, 'persona')}
<h2>By difficulty</h2>
${groupTable(a.report, b.report, key, 'difficulty')}
<h2>What flipped</h2>
${flipTable(a, b, out)}
</body></html>
`;
}
