import type { TrajectoryStep } from '../agent/trajectory.js';
import type { CaseView } from './case-view.js';
import { esc } from './html-summary.js';
import { addUsage, NO_USAGE, type TokenUsage } from '../llm/usage.js';
import { weightText } from '../slots/weights.js';

/**
 * One case page: why a case scored what it did, side by side. Static HTML with no script at all and a CSP
 * that allows only its own inline style and images from its own folder; images load lazily, so a report
 * of 404 cases x several agents opens as fast as one.
 */

const pct = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);
const img = (src: string | undefined, alt: string) =>
  src ? `<a href="${esc(src)}"><img loading="lazy" decoding="async" src="${esc(src)}" alt="${esc(alt)}"></a>` : `<p class="empty">no screenshot</p>`;
const chips = (ids: readonly string[]) => (ids.length ? ids.map((i) => `<span class="chip">${esc(i)}</span>`).join(' ') : '<span class="empty">none</span>');
const block = (text: string | undefined) => (text === undefined ? '<p class="empty">not available (the dataset is not loaded here)</p>' : `<pre>${esc(text)}</pre>`);

function instructions(v: CaseView): string {
  const d = v.degradation;
  const degradation = d
    ? `<table><tr><th>left out</th><td>${chips(d.omits)}</td></tr><tr><th>blurred</th><td>${chips(d.blurs)}</td></tr><tr><th>contradicted</th><td>${chips(d.contradicts)}</td></tr></table>`
    : '<p class="empty">the dataset records no degradation for this case</p>';
  return `<div class="two"><div><h3>What the agent saw (${esc(v.result.persona)})</h3>${block(v.case?.instruction)}</div><div><h3>Hidden gold instruction</h3>${block(v.case?.task.goldInstruction)}</div></div>
<h3>Degradation record</h3>${degradation}`;
}

/** A verify step's audit: the criteria, the verdict, and each copilot turn with the frame it saw. */
function audit(s: TrajectoryStep, shots: ReadonlyMap<string, string>): string {
  const a = s.audit;
  if (!a) return '';
  const turns = a.turns
    .map((t, i) => `<li>${esc(t.action)}: ${esc(t.outcome)}<br><span class="meta">${esc(t.thought)}</span>${t.frame ? img(shots.get(`audit:${s.index}:${i}`), `audit frame ${i + 1}`) : ''}</li>`)
    .join('');
  return `<div class="audit"><p><b>Audit by ${esc(a.model)}: <span class="status ${a.passed ? 'pass' : 'fail'}">${a.passed ? 'passed' : a.error ? 'could not run' : 'failed'}</span></b> (${a.failedInARow} of ${a.failureLimit} failed in a row)</p><details><summary>criteria</summary><pre>${esc(a.criteria)}</pre></details><pre>${esc(a.report)}</pre><ol>${turns}</ol></div>`;
}

function step(s: TrajectoryStep, shots: ReadonlyMap<string, string>): string {
  const head = `<div class="head"><b>${s.index}. ${esc(s.action)}</b> <span class="meta">${s.latencyMs} ms${s.usage ? ` · ${s.usage.promptTokens}+${s.usage.completionTokens} tokens` : ''}</span></div>${s.reasoning ? `<details><summary>reasoning</summary><pre>${esc(s.reasoning.slice(0, 4000))}</pre></details>` : ''}`;
  let body = '';
  if (s.action === 'clarify') {
    const t = s.userTurn;
    body = `<p class="q"><b>Agent asks:</b> ${esc(String(s.args.question ?? ''))}</p>`;
    if (t) {
      const stances = t.stances?.length ? `<br>stances: ${t.stances.map((x) => `${esc(x.slotId)} ${esc(x.stance)}`).join(', ')}` : '';
      const leak = t.leakCheck.leakedSlotIds.length ? `<br><span class="bad">leaked: ${chips(t.leakCheck.leakedSlotIds)}</span>` : '';
      body += `<p class="a"><b>User answers${t.source ? ` (${esc(t.source)})` : ''}:</b> ${esc(t.answer)}</p><p class="meta">retrieved slots: ${chips(t.retrievedSlotIds)}${t.refused ? ' · refused' : ''}${t.retries ? ` · ${t.retries} retries` : ''}${stances}${leak}${t.error ? `<br>error: ${esc(t.error)}` : ''}</p>`;
    }
  } else if (s.action === 'implement') {
    const files = Array.isArray(s.args.files) ? (s.args.files as { path: string; bytes: number }[]) : [];
    const deletes = Array.isArray(s.args.deletes) ? (s.args.deletes as string[]) : [];
    body = `<table><tr><th>file</th><th>bytes</th></tr>${files.map((f) => `<tr><td>${esc(f.path)}</td><td class="num">${f.bytes}</td></tr>`).join('')}</table>${deletes.length ? `<p>deleted: ${deletes.map(esc).join(', ')}</p>` : ''}`;
    if (s.site?.problems.length) body += `<p class="bad">site problems: ${esc(s.site.problems.join('; '))}</p>`;
  } else if (s.action === 'verify') {
    body = `<p>looked at <code>${esc(String(s.args.path ?? '/'))}</code></p>${img(shots.get(`step:${s.index}`), `verify screenshot, step ${s.index}`)}${audit(s, shots)}`;
  } else if (s.action === 'invalid') body = `<p class="bad">${esc(String(s.args.reason ?? 'unreadable reply'))}</p>`;
  const observation = s.action === 'verify' || s.action === 'clarify' || s.action === 'submit' ? '' : s.observation ? `<details><summary>observation</summary><pre>${esc(s.observation.slice(0, 4000))}</pre></details>` : '';
  return `<li class="step ${esc(s.action)}">${head}${body}${observation}</li>`;
}

function episode(v: CaseView, shots: ReadonlyMap<string, string>): string {
  const t = v.trajectory;
  if (!t) return `<p class="empty">${esc(v.trajectoryNote ?? 'no trajectory')}</p>`;
  const status = `<p>Episode <b>${esc(t.status)}</b> after ${t.steps.length} of ${t.stepCap} steps in ${(t.durationMs / 1000).toFixed(1)} s; ${t.counts.clarify} questions, ${t.counts.implement} implements, ${t.counts.verify} verifies${t.questionBeforeCode ? ', asked before coding' : ''}; ${t.linesOfCode} lines of code${t.locPaper !== undefined ? ` (${t.locPaper} by the paper's count)` : ''} in ${t.files.length} files.</p>`;
  const error = t.error ? `<pre class="bad">${esc(t.error)}</pre>` : '';
  const d = t.deadlock;
  const deadlock = d ? `<p class="bad">Verification deadlock after ${d.failedInARow} failed audits in a row${d.analysis ? `: ${esc(d.analysis.category)}: ${esc(d.analysis.summary)}` : ''}</p>` : '';
  const stderr = shots.get('stderr');
  return `${status}${error}${deadlock}${stderr ? `<p><a href="${esc(stderr)}">the agent's stderr</a></p>` : ''}<ol class="steps">${t.steps.map((s) => step(s, shots)).join('')}</ol>`;
}

/**
 * The crash rule's finding (paper profile): a crashed site fails every slot before any judge looks, so the
 * slots table alone would show failures without a cause. Its errors are the page's own text: escaped.
 */
const crashOf = (v: CaseView) => v.records.find((r) => r.visual?.crash)?.visual?.crash;

function crashed(v: CaseView): string {
  const c = crashOf(v);
  if (!c?.crashed) return '';
  const errors = c.errors.length ? `<ul>${c.errors.map((e) => `<li><code>${esc(e)}</code></li>`).join('')}</ul>` : '';
  return `<p class="bad"><b>Crashed on load</b> (the profile's crash rule): ${esc(c.reason ?? 'unknown')}. Every slot failed without a judge looking at the page.</p>${errors}`;
}

function slots(v: CaseView, shots: ReadonlyMap<string, string>): string {
  const rows = v.records.map((r) => {
    const slot = v.case?.slots.find((s) => s.id === r.slotId);
    const images = r.images.map((im, i) => img(shots.get(`slot:${r.slotId}:${i}`), im.name)).join('');
    return `<tr class="${esc(r.status)}"><td><b>${esc(r.slotId)}</b><br><span class="meta">${esc(r.assertionType)} · weight ${weightText(r.weight)} · ${esc(r.targetComponent)}</span></td><td>${slot ? `${esc(slot.task)}<br><span class="meta">expect: ${esc(slot.expectedResult)}</span>` : '<span class="empty">—</span>'}</td><td><span class="status ${esc(r.status)}">${esc(r.status)}</span>${r.injection ? ' <span class="warn">page addressed the judge</span>' : ''}</td><td>${esc(r.judge ?? '—')}</td><td>${esc(r.evidence)}${images ? `<div class="shots">${images}</div>` : ''}</td></tr>`;
  });
  return `<table class="slots"><thead><tr><th>slot</th><th>what it checks</th><th>verdict</th><th>judge</th><th>evidence</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function tokens(v: CaseView): string {
  const usage = v.records.find((r) => r.episode)?.episode?.usage ?? [];
  const judge = v.records.flatMap((r) => (r.judgeUsage ? [r.judgeUsage] : []));
  const all = [...usage, ...judge];
  if (all.length === 0) return '<p class="empty">no model tokens (offline)</p>';
  const sum = new Map<string, TokenUsage>();
  for (const u of all) {
    const k = `${u.role}\0${u.model}`;
    sum.set(k, addUsage(sum.get(k) ?? NO_USAGE, u));
  }
  return `<table><tr><th>role</th><th>model</th><th>prompt</th><th>completion</th></tr>${[...sum].map(([k, s]) => {
    const [role, model] = k.split('\0');
    return `<tr><td>${esc(role!)}</td><td>${esc(model!)}</td><td class="num">${s.unknown ? 'unknown' : s.prompt}</td><td class="num">${s.unknown ? 'unknown' : s.completion}</td></tr>`;
  }).join('')}</table>`;
}

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1200px;padding:0 16px;color:#1f2328}
h1{font-size:20px;margin:0}h2{font-size:16px;margin:24px 0 8px;border-bottom:1px solid #d0d7de}h3{font-size:14px;margin:12px 0 4px}
.meta{color:#57606a;font-size:12px}.empty{color:#57606a}.bad{color:#cf222e}.warn{color:#9a6700}
.two{display:grid;grid-template-columns:1fr 1fr;gap:16px}pre{white-space:pre-wrap;background:#f6f8fa;padding:8px;border-radius:6px;margin:0}
table{border-collapse:collapse;margin:6px 0}th,td{border:1px solid #d0d7de;padding:3px 8px;text-align:left;vertical-align:top}th{background:#f6f8fa}
.num{text-align:right}.chip{display:inline-block;font-size:11px;padding:0 4px;border:1px solid #afb8c1;border-radius:3px}
.steps{padding-left:0;list-style:none}.step{border:1px solid #d0d7de;border-radius:6px;padding:6px 10px;margin:6px 0}.q{margin:4px 0}.a{margin:4px 0 0 24px}
img{max-width:420px;border:1px solid #d0d7de;margin:4px 4px 0 0}.shots img{max-width:260px}
.status{font-weight:600}.status.pass{color:#1a7f37}.status.fail{color:#cf222e}.status.errored{color:#9a6700}.status.unjudged{color:#57606a}`;

export function renderCasePage(v: CaseView, shots: ReadonlyMap<string, string>): string {
  const r = v.result;
  const e = v.records.find((x) => x.episode)?.episode;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src 'self' file:">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(r.id)} · ${esc(r.agent)}</title><style>${STYLE}</style></head><body>
<p class="meta"><a href="../summary.html">← summary</a></p>
<h1>${esc(r.id)}</h1>
<p class="meta">agent <b>${esc(r.agent)}</b> · trial ${r.trial} · ${esc(r.persona)} · ${esc(r.difficulty)} · TCR ${pct(r.tcr)} · ${r.hallucinated === null ? 'no NEGATIVE slot judged' : r.hallucinated ? '<span class="bad">hallucinated (a NEGATIVE slot failed)</span>' : 'no hallucination'}${crashOf(v)?.crashed ? ' · <span class="bad">crashed on load</span>' : ''}${e ? ` · episode ${esc(e.status)}${e.cached ? ' (from the cache)' : ''}` : ''}</p>
${e?.error ? `<pre class="bad">${esc(e.error)}</pre>` : ''}
<h2>Instructions</h2>${instructions(v)}
<h2>Episode</h2>${episode(v, shots)}
<h2>Final page</h2>${crashed(v)}${img(shots.get('final'), 'the submitted site as judged')}${r.visualFindings.length ? `<p class="bad">visual findings: ${esc(r.visualFindings.join('; '))}</p>` : ''}
<h2>Slots</h2>${slots(v, shots)}
<h2>Tokens per role</h2>${tokens(v)}
</body></html>
`;
}
