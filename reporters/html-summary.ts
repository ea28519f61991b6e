import { createHash } from 'node:crypto';
import { DIFFICULTIES, PERSONAS } from '../slots/schema.js';
import { weightText } from '../slots/weights.js';
import { caseHref } from './case-href.js';
import { esc } from './html-escape.js';
import { fmt } from './format.js';
import { costUnknownWhy, tokensText } from './fmt.js';
import { breakdownTables } from './format-breakdowns.js';
import { headlineRows, type MetricKey } from './metric-table.js';
import type { Aggregate, CaseResult, Report } from './report-schema.js';
import { runHealth } from './run-health.js';

export { esc };

/**
 * summary.html: the report as one page a reviewer can open from disk or from the Playwright HTML report.
 * Everything is inline (CSS, SVG drawn here) and the page forbids itself any fetch, so it shows the same
 * offline, in CI artifacts and years later.
 */


const pct = (v: number | null | undefined, digits = 1) => (v === null || v === undefined ? '—' : (v * 100).toFixed(digits));
/** The interval exactly as report.md rounds it, so the page and the Markdown never disagree in the last digit. */
const interval = (a: Aggregate, k: MetricKey) => fmt(a, k, true).slice(fmt(a, k).length).trim() || '—';

function headline(r: Report): string {
  const a = r.overall;
  const level = `${Math.round(r.meta.bootstrap.level * 100)}% CI`;
  // The profile picks which reading of a two-way figure (VCI) is a card; report.json keeps both.
  const cards = headlineRows('card', r.meta.profile).map(({ key, title, show, unit }) => {
    const v = fmt(a, key);
    return card(title, v === '—' ? v : `${v}${unit === 'percent' ? '%' : ''}`, `${level} ${interval(a, key)}`, `n = ${a.n[key]} · ${show.card}`);
  });
  const roles = Object.values(a.usage);
  const tokens = roles.some((u) => u.prompt === null) ? 'unknown' : tokensText({ prompt: roles.reduce((s, u) => s + u.prompt!, 0), completion: roles.reduce((s, u) => s + u.completion!, 0) });
  cards.push(card('cost', a.costUsd === null ? 'unknown' : `$${a.costUsd.toFixed(4)}`, costUnknownWhy(a) ?? 'every role, US dollars', `${tokens} tokens`));
  return `<section class="cards">${cards.join('')}</section>`;
}

const card = (title: string, value: string, ci: string, note: string) =>
  `<div class="card"><div class="k">${esc(title)}</div><div class="v">${esc(value)}</div><div class="ci">${esc(ci)}</div><div class="note">${esc(note)}</div></div>`;

interface Bar {
  key: string;
  value: number | null;
  ci: [number, number] | null;
  series: number;
  tip: string;
}
interface Group {
  label: string;
  bars: Bar[];
}

function bar(key: string, a: Aggregate, k: MetricKey, series: number, name: string): Bar {
  const value = a[k] === null ? 'undefined (no case it applies to)' : `${fmt(a, k)}% ${interval(a, k)}`;
  return { key: `${k}:${key}`, value: a[k], ci: a.ci[k], series, tip: `${key} ${name} ${value}, n = ${a.n[k]}` };
}

const BAR = 24;
const GAP = 4;
const PAD = 24;
const LEFT = 40;
const TOP = 18;
const PLOT = 170;
const BOTTOM = 34;

/**
 * Vertical bars of shares (0-100%) with their bootstrap interval as whiskers, grouped. A null value
 * draws no bar, only a dash, so an undefined metric never reads as 0.
 */
function barChart(title: string, groups: readonly Group[], legend: readonly { series: number; label: string }[], minGroup = 0): string {
  if (groups.length === 0) return `<figure><figcaption>${esc(title)}</figcaption><p class="empty">no cases</p></figure>`;
  const widths = groups.map((g) => Math.max(g.bars.length * (BAR + GAP) - GAP, minGroup) + PAD);
  const width = LEFT + widths.reduce((s, w) => s + w, 0) + 8;
  const height = TOP + PLOT + BOTTOM;
  const y = (v: number) => TOP + PLOT * (1 - Math.min(1, Math.max(0, v)));
  const out: string[] = [];
  for (const t of [0, 0.25, 0.5, 0.75, 1]) {
    out.push(`<line class="grid" x1="${LEFT}" x2="${width - 8}" y1="${y(t)}" y2="${y(t)}"/><text class="tick" x="${LEFT - 6}" y="${y(t) + 4}">${t * 100}</text>`);
  }
  let x0 = LEFT;
  groups.forEach((g, gi) => {
    const inner = g.bars.length * (BAR + GAP) - GAP;
    let x = x0 + (widths[gi]! - inner) / 2;
    for (const b of g.bars) {
      const cx = x + BAR / 2;
      out.push(`<g><title>${esc(b.tip)}</title>`);
      if (b.value === null) out.push(`<text class="na" x="${cx}" y="${y(0) - 4}">—</text>`);
      else {
        // A zero still gets a hairline so a present group is visibly there.
        const h = Math.max(PLOT * Math.min(1, Math.max(0, b.value)), 1);
        out.push(`<rect class="bar s${b.series}" data-key="${esc(b.key)}" x="${x}" y="${y(0) - h}" width="${BAR}" height="${h}"/>`);
        if (b.ci) {
          const [lo, hi] = [y(b.ci[0]), y(b.ci[1])];
          out.push(`<path class="whisker" d="M${cx} ${lo}V${hi}M${cx - 5} ${lo}h10M${cx - 5} ${hi}h10"/>`);
        }
        out.push(`<text class="val" x="${cx}" y="${y(Math.max(b.value, b.ci?.[1] ?? b.value)) - 4}">${pct(b.value, 0)}</text>`);
      }
      out.push('</g>');
      x += BAR + GAP;
    }
    const chars = [...g.label];
    const label = chars.length > 18 ? `${chars.slice(0, 17).join('')}…` : g.label;
    out.push(`<text class="group" x="${x0 + widths[gi]! / 2}" y="${TOP + PLOT + 18}"><title>${esc(g.label)}</title>${esc(label)}</text>`);
    x0 += widths[gi]!;
  });
  return `<figure><figcaption>${esc(title)}</figcaption><svg role="img" aria-label="${esc(title)}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">${out.join('')}</svg><div class="legend">${legend.map((l) => `<span class="sw s${l.series}"></span>${esc(l.label)}`).join(' ')} · whiskers: bootstrap interval</div></figure>`;
}

function personaDifficulty(r: Report, k: MetricKey, name: string): string {
  const groups: Group[] = [];
  for (const p of PERSONAS) {
    const bars = DIFFICULTIES.flatMap((d, i) => {
      const a = r.byPersonaDifficulty[`${p}/${d}`];
      return a ? [bar(`${p}/${d}`, a, k, i, name)] : [];
    });
    if (bars.length) groups.push({ label: p, bars });
  }
  return barChart(`${name} % by persona and difficulty`, groups, DIFFICULTIES.map((label, series) => ({ series, label })));
}

function byAgent(r: Report): string {
  const groups = Object.entries(r.byAgent).map(([agent, a]) => ({ label: agent, bars: [bar(agent, a, 'tcr', 0, 'TCR'), bar(agent, a, 'hr', 3, 'HR')] }));
  return barChart('TCR % and HR % by agent', groups, [{ series: 0, label: 'TCR' }, { series: 3, label: 'HR' }], 120);
}

/** Headers are text; cells are HTML, so each caller escapes what it puts in them (and may add markup). */
const table = (header: readonly string[], rows: readonly (readonly string[])[], cls = '') =>
  `<table class="${cls}"><thead><tr>${header.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((row) => `<tr>${row.map((c) => `<td>${c}</td>`).join('')}</tr>`)
    .join('')}</tbody></table>`;

const FILTERS = ['persona', 'difficulty', 'status', 'agent'] as const;
const rowAttrs = (c: CaseResult) => ` data-persona="${esc(c.persona)}" data-difficulty="${esc(c.difficulty)}" data-status="${caseStatus(c)}" data-agent="${esc(c.agent)}"`;

function filterBar(cases: readonly CaseResult[]): string {
  const values: Record<(typeof FILTERS)[number], string[]> = {
    persona: [...new Set(cases.map((c) => c.persona))].sort(),
    difficulty: DIFFICULTIES.filter((d) => cases.some((c) => c.difficulty === d)),
    status: ['passed', 'failed', 'errored', 'unjudged'].filter((st) => cases.some((c) => caseStatus(c) === st)),
    agent: [...new Set(cases.map((c) => c.agent))].sort(),
  };
  const select = (f: (typeof FILTERS)[number]) =>
    `<label>${f} <select data-filter="${f}"><option value="">all</option>${values[f].map((v) => `<option>${esc(v)}</option>`).join('')}</select></label>`;
  return `<p class="filters">${FILTERS.map(select).join(' ')} <label>search <input id="search" type="search" placeholder="case, agent, slot, finding"></label> <span id="shown"></span></p>`;
}

/**
 * The case table's only script: filters (persona, difficulty, status, agent), a search over each row's text,
 * and sorting by any column header (click or Enter; again to reverse; undefined values last). It reorders
 * and hides table rows, nothing else. The page's CSP allows exactly this script (by its hash) and no fetch
 * of any kind, so the page stays offline whatever a case id contains.
 */
const FILTER_SCRIPT = `(function(){var s=document.querySelectorAll('select[data-filter]');var q=document.getElementById('search');var body=document.querySelector('table.cases tbody');var rows=Array.prototype.slice.call(body.rows);
function apply(){var n=0;var t=q.value.trim().toLowerCase();rows.forEach(function(r){var ok=true;s.forEach(function(x){if(x.value&&r.getAttribute('data-'+x.getAttribute('data-filter'))!==x.value)ok=false;});if(ok&&t&&r.textContent.toLowerCase().indexOf(t)<0)ok=false;r.hidden=!ok;if(ok)n++;});document.getElementById('shown').textContent=n+' of '+rows.length+' cases';}
function val(r,i){var c=r.cells[i];var v=c.getAttribute('data-v');if(v===null)v=c.textContent.trim();if(v===''||v==='—')return null;return /^-?\\d+(\\.\\d+)?$/.test(v)?parseFloat(v):v.toLowerCase();}
var heads=document.querySelectorAll('table.cases th');heads.forEach(function(th,i){th.tabIndex=0;function sort(){var up=th.getAttribute('aria-sort')!=='ascending';heads.forEach(function(h){h.removeAttribute('aria-sort');});th.setAttribute('aria-sort',up?'ascending':'descending');
rows.map(function(r,k){return {r:r,v:val(r,i),k:k};}).sort(function(a,b){if(a.v===null||b.v===null)return a.v===b.v?a.k-b.k:a.v===null?1:-1;var d=typeof a.v===typeof b.v?(a.v<b.v?-1:a.v>b.v?1:0):(typeof a.v==='number'?-1:1);return (up?d:-d)||a.k-b.k;}).forEach(function(x){body.appendChild(x.r);});}
th.addEventListener('click',sort);th.addEventListener('keydown',function(e){if(e.key==='Enter')sort();});});
s.forEach(function(x){x.addEventListener('change',apply);});q.addEventListener('input',apply);apply();})();`;
export const FILTER_SCRIPT_HASH = `sha256-${createHash('sha256').update(FILTER_SCRIPT).digest('base64')}`;

function sensitivity(r: Report): string {
  const rows = Object.entries(r.weightSensitivity.tcr).map(([agent, w]) => [esc(agent), pct(w.paper), pct(w.uniform), pct(w.cTech)]);
  const tau = (t: number | null) => (t === null ? '— (needs 2 agents)' : t.toFixed(3));
  const { uniform, cTech } = r.weightSensitivity.kendallTau;
  return `${table(['agent', 'TCR % (paper weights)', 'TCR % (uniform)', 'TCR % (c_tech only)'], rows)}<p>Kendall tau-b of the agent ranking, paper weights against uniform: ${esc(tau(uniform))}; against c_tech only: ${esc(tau(cTech))}.</p>`;
}

function passK(r: Report): string {
  const entries = Object.entries(r.passK);
  if (entries.length === 0) return '<p class="empty">no case had a judged slot</p>';
  const kMax = Math.max(...entries.map(([, ks]) => Object.keys(ks).length));
  const ks = Array.from({ length: kMax }, (_, i) => String(i + 1));
  return table(['agent', ...ks.map((k) => `pass^${k}`)], entries.map(([agent, v]) => [esc(agent), ...ks.map((k) => (v[k] === undefined ? '—' : v[k]!.toFixed(3)))]));
}

const yesNo = (b: boolean | null) => (b === null ? '—' : b ? 'yes' : 'no');

/** One word per case for the status filter: errored (nothing decided), passed (every judged slot), failed, unjudged. */
export function caseStatus(c: CaseResult): 'errored' | 'passed' | 'failed' | 'unjudged' {
  if (c.episodeStatus === 'errored' || (c.slots.length > 0 && c.slots.every((s) => s.status === 'errored'))) return 'errored';
  return c.sr === null ? 'unjudged' : c.sr ? 'passed' : 'failed';
}

/** Sort keys where a cell's text does not sort as meant: difficulty by its order, slots by the share that passed. */
function caseSortKeys(c: CaseResult): Record<number, string> {
  const judged = c.slots.filter((x) => x.status === 'pass' || x.status === 'fail');
  return { 4: String(DIFFICULTIES.indexOf(c.difficulty)), 7: judged.length ? (judged.filter((x) => x.status === 'pass').length / judged.length).toFixed(4) : '' };
}

function caseTable(cases: readonly CaseResult[]): string {
  const header = ['case', 'agent', 'trial', 'persona', 'difficulty', 'TCR %', 'hallucinated', 'slots', 'visual findings'];
  const rows = cases.map((c) => {
    const keys = caseSortKeys(c);
    return `<tr${rowAttrs(c)}>${caseRow(c).map((cell, i) => `<td${keys[i] !== undefined ? ` data-v="${esc(keys[i]!)}"` : ''}>${cell}</td>`).join('')}</tr>`;
  });
  return `<table class="cases"><thead><tr>${header.map((h) => `<th title="sort by ${esc(h)}">${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function caseRow(c: CaseResult): string[] {
  const slots = c.slots
    .map((s) => `<span class="slot ${esc(s.status)}${s.assertionType === 'NEGATIVE' ? ' neg' : ''}" title="${esc(`${s.id} ${s.assertionType} weight ${weightText(s.weight)}: ${s.status}`)}">${esc(s.id)}</span>`)
    .join('');
  return [
    `<a href="${esc(caseHref(c))}">${esc(c.id)}</a>${c.injectionFlagged ? ' <span class="warn" title="the page addressed the judge">⚠</span>' : ''}`,
    esc(c.agent),
    String(c.trial),
    esc(c.persona),
    esc(c.difficulty),
    pct(c.tcr),
    `<span class="${c.hallucinated ? 'bad' : ''}">${yesNo(c.hallucinated)}</span>`,
    slots,
    esc(c.visualFindings.join('; ')),
  ];
}

/** The look of every page the reporters write (the summary, the comparison). */
export const SUMMARY_STYLE = `
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:24px auto;max-width:1200px;padding:0 16px;color:#1f2328;background:#fff}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #d0d7de;padding-bottom:4px}
.meta{color:#57606a}.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));gap:10px;margin-top:16px}
.card{border:1px solid #d0d7de;border-radius:6px;padding:10px 14px}.card .k{font-weight:600;color:#57606a}
.card .v{font-size:24px;font-weight:600}.card .ci,.card .note{font-size:12px;color:#57606a}
.charts{display:flex;flex-wrap:wrap;gap:24px}figure{margin:0}figcaption{font-weight:600;margin-bottom:4px}svg{max-width:100%;height:auto}
.grid{stroke:#eaeef2}.tick{font-size:10px;fill:#57606a;text-anchor:end}.group{font-size:12px;text-anchor:middle;fill:#1f2328}
.val,.na{font-size:10px;text-anchor:middle;fill:#1f2328}.whisker{stroke:#1f2328;stroke-width:1.2;fill:none}
.s0{fill:#4c78a8;background:#4c78a8}.s1{fill:#f58518;background:#f58518}.s2{fill:#54a24b;background:#54a24b}.s3{fill:#e45756;background:#e45756}
.legend{font-size:12px;color:#57606a}.sw{display:inline-block;width:10px;height:10px;margin:0 4px 0 8px;border-radius:2px}
table{border-collapse:collapse;margin:6px 0}th,td{border:1px solid #d0d7de;padding:3px 8px;text-align:left;vertical-align:top}th{background:#f6f8fa}
.cases td:nth-child(3),.cases td:nth-child(6){text-align:right}.slot{display:inline-block;font-size:11px;padding:0 4px;margin:1px;border-radius:3px;border:1px solid}
.slot.pass{background:#dafbe1;border-color:#4ac26b}.slot.fail{background:#ffebe9;border-color:#ff8182}.slot.errored{background:#fff8c5;border-color:#d4a72c}
.slot.unjudged{background:#f6f8fa;border-color:#afb8c1;color:#57606a}.slot.neg{font-style:italic;text-decoration:overline}
.cases th{cursor:pointer;user-select:none}.cases th[aria-sort=ascending]::after{content:" ▲"}.cases th[aria-sort=descending]::after{content:" ▼"}
.health{background:#fff8c5;border:1px solid #d4a72c;border-radius:6px;padding:8px 12px;font-weight:600}.filters select{margin-right:8px}
.bad{color:#cf222e;font-weight:600}.warn{color:#9a6700}.empty{color:#57606a}
`;

export function renderSummary(r: Report): string {
  const m = r.meta;
  const agents = m.agents.length ? m.agents.join(', ') : Object.keys(r.byAgent).join(', ') || 'unknown';
  const flagged = r.injectionFlaggedCases.length
    ? `<p class="warn">Pages that addressed the judge (check by hand): ${r.injectionFlaggedCases.map(esc).join(', ')}</p>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src '${FILTER_SCRIPT_HASH}'">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>InteractWeb-Bench summary: ${esc(m.dataset)}</title><style>${SUMMARY_STYLE}</style></head><body>
<h1>InteractWeb-Bench summary</h1>
${runHealth(r).map((l) => `<p class="health">${esc(l)}</p>`).join('')}
<p class="meta">Profile <b>${esc(m.profile ?? 'iwb')}</b> · dataset <b>${esc(m.dataset)}</b> · agent ${esc(agents)} · ${r.overall.cases} cases · run ${esc(m.startedAt)} (${m.durationMs > 0 ? `${(m.durationMs / 1000).toFixed(0)} s` : "duration unknown"}, Playwright ${esc(m.playwrightStatus)}) · intervals: ${Math.round(m.bootstrap.level * 100)}% percentile bootstrap over cases, ${m.bootstrap.resamples} resamples, seed ${m.bootstrap.seed}</p>
${flagged}${headline(r)}
<h2>By persona and difficulty</h2>
<div class="charts">${personaDifficulty(r, 'tcr', 'TCR')}${personaDifficulty(r, 'hr', 'HR')}</div>
<h2>By agent</h2>
${byAgent(r)}
<h2>Weight sensitivity</h2>
${sensitivity(r)}
<h2>pass^k</h2>
${passK(r)}
${breakdownTables(r).map((t) => `<h2>${esc(t.title)}</h2>${table(t.header, t.rows.map((row) => row.map(esc)))}${t.note ? `<p class="meta">${esc(t.note)}</p>` : ''}`).join('\n')}
<h2>Cases</h2>
<p class="meta">Slots: green passed, red failed, yellow errored, grey unjudged; italic and overlined slots are NEGATIVE (a failed one is a hallucination).</p>
${filterBar(r.cases)}
${caseTable(r.cases)}
<p class="meta">Definitions: docs/metrics.md; unjudged and errored slots are left out of every rate.</p>
<script>${FILTER_SCRIPT}</script>
</body></html>
`;
}
