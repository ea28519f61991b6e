import { ANNOTATION, EpisodeAnnotationSchema, JudgingAnnotationSchema, VisualAnnotationSchema } from '../protocol/annotations.js';
import { caseHref } from '../reporters/case-view.js';
import { esc } from '../reporters/html-summary.js';
import type { WeightedSlot } from '../slots/schema.js';
import type { Verdict } from './types.js';

/**
 * What a reader of Playwright's HTML report sees of a slot test: short `name: value` annotations instead of
 * the JSON records the reporters read (hidden there by their leading underscore), and one HTML attachment
 * with the same rows as a table and links to the case page and the summary. The attachment is copied to
 * the report's data/ folder, so its links climb one level to where the iwb reporter copies summary.html
 * and cases/.
 */

export type SheetRow = readonly [name: string, value: string];
/** A test's annotations as Playwright keeps them (a description may be missing). */
type Annotations = readonly { type: string; description?: string }[];

function parsed<T>(annotations: Annotations, type: string, parse: (v: unknown) => T | undefined): T | undefined {
  const text = [...annotations].reverse().find((a) => a.type === type)?.description;
  if (!text) return undefined;
  try {
    return parse(JSON.parse(text));
  } catch {
    return undefined;
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The readable rows of a judged slot, in the order a reader asks: what was decided, by whom, why, on what. */
export function slotSheetRows(slot: WeightedSlot, verdict: Pick<Verdict, 'status' | 'judge' | 'evidence'>, annotations: Annotations): SheetRow[] {
  const episode = parsed(annotations, ANNOTATION.episode, (v) => EpisodeAnnotationSchema.safeParse(v).data);
  const visual = parsed(annotations, ANNOTATION.visual, (v) => VisualAnnotationSchema.safeParse(v).data);
  const judging = parsed(annotations, ANNOTATION.judging, (v) => JudgingAnnotationSchema.safeParse(v).data);
  const rows: SheetRow[] = [
    ['verdict', `${verdict.status} (${verdict.judge})`],
    ['evidence', verdict.evidence.length > 400 ? `${verdict.evidence.slice(0, 400)}…` : verdict.evidence],
  ];
  if (episode) {
    const how = episode.cached ? 'from an earlier run' : `ran in ${seconds(episode.durationMs)}`;
    rows.push(['episode', `${episode.status} after ${episode.steps} of ${episode.stepCap} steps · agent ${episode.agent} · ${how}${episode.error ? ` · ${episode.error.slice(0, 200)}` : ''}`]);
  }
  if (judging) rows.push(['judged', judging.by === slot.id ? `in this test, ${seconds(judging.ms)}` : `ahead, by slot ${judging.by}'s test, ${seconds(judging.ms)}`]);
  if (visual) rows.push(['final page', visual.crash?.crashed ? `crashed on load: ${visual.crash.reason ?? ''}` : visual.findings.length ? visual.findings.join('; ') : 'no visual bug found']);
  return rows;
}

/** The case page's path inside a report folder, as the iwb reporter names it (agent `unknown` when no episode named it). */
export function slotCaseHref(caseId: string, trial: number, annotations: Annotations): string {
  const episode = parsed(annotations, ANNOTATION.episode, (v) => EpisodeAnnotationSchema.safeParse(v).data);
  return caseHref({ agent: episode?.agent ?? 'unknown', id: caseId, trial });
}

export function renderSlotSheet(title: string, rows: readonly SheetRow[], href: string): string {
  const links = `<a href="../${esc(href)}">case page</a> · <a href="../summary.html">run summary</a>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${esc(title)}</title><style>body{font:14px/1.45 system-ui,sans-serif;margin:20px;color:#1f2328}table{border-collapse:collapse}th,td{border:1px solid #d0d7de;padding:4px 10px;text-align:left;vertical-align:top}th{background:#f6f8fa;white-space:nowrap}</style></head><body>
<h1 style="font-size:18px">${esc(title)}</h1><p>${links}</p>
<table>${rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join('')}</table>
<p style="color:#57606a">The links work where the report is served with its folder (npx iwb open, npx playwright show-report).</p>
</body></html>
`;
}
