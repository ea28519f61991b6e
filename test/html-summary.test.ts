import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { FullConfig, FullResult, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { ANNOTATION } from '../protocol/annotations.js';
import { FILTER_SCRIPT_HASH, renderSummary } from '../reporters/html-summary.js';
import IwbReporter from '../reporters/iwb-reporter.js';
import { buildReport } from '../reporters/report.js';
import { episodeAnnotation, reportOf, type CaseSpec } from './report-support.js';

const EVIL_ID = '<script>alert(1)</script>_P-MIN';
const EVIL_AGENT = '<img src=x onerror=alert(2)>';

/** Two agents over two personas and three difficulties; outcomes vary so the intervals are not points. */
function twoAgents(): CaseSpec[] {
  const out: CaseSpec[] = [];
  for (let i = 0; i < 6; i++) {
    out.push({ id: `a${i}_P-MIN`, agent: 'alpha', persona: 'P-MIN', difficulty: 'easy', positives: i % 3 ? ['pass', 'pass'] : ['pass', 'fail'], negatives: [i === 0 ? 'fail' : 'pass'] });
    out.push({ id: `b${i}_P-CON`, agent: EVIL_AGENT, persona: 'P-CON', difficulty: 'hard', positives: i % 2 ? ['fail', 'fail'] : ['pass', 'fail'], negatives: [i < 3 ? 'fail' : 'pass'] });
    out.push({ id: `c${i}_P-CON`, agent: 'alpha', persona: 'P-CON', difficulty: 'middle', positives: ['pass', i % 2 ? 'pass' : 'fail'] });
  }
  out.push({ id: EVIL_ID, agent: 'alpha', persona: 'P-MIN', difficulty: 'hard', positives: ['pass'], visual: { bug: true, findings: ['"><svg onload=alert(3)>'] } });
  return out;
}

const attr = (html: string, key: string) => [...html.matchAll(new RegExp(`<rect class="bar[^"]*" data-key="${key.replace(/[/.*+?^${}()|[\]\\]/g, '\\$&')}"[^>]*height="([\\d.]+)"`, 'g'))].map((m) => Number(m[1]));

test('the summary draws one TCR and one HR bar per persona x difficulty group, to scale, with interval whiskers', () => {
  const r = reportOf(twoAgents());
  const html = renderSummary(r);
  assert.match(html, /<svg /);
  const groups = Object.keys(r.byPersonaDifficulty);
  assert.deepEqual(groups, ['P-MIN/easy', 'P-MIN/hard', 'P-CON/middle', 'P-CON/hard'], 'personas in the paper order, difficulty easy, middle, hard');
  for (const g of groups) {
    assert.equal(attr(html, `tcr:${g}`).length, 1, `one TCR bar for ${g}`);
    assert.equal(attr(html, `hr:${g}`).length, r.byPersonaDifficulty[g]!.hr === null ? 0 : 1, `HR bar for ${g}`);
  }
  const [easy, middle] = [attr(html, 'tcr:P-MIN/easy')[0]!, attr(html, 'tcr:P-CON/middle')[0]!];
  const ratio = r.byPersonaDifficulty['P-MIN/easy']!.tcr! / r.byPersonaDifficulty['P-CON/middle']!.tcr!;
  assert.ok(Math.abs(easy / middle - ratio) < 1e-9, `bar heights ${easy}/${middle} follow the values (${ratio})`);
  const drawn = (html.match(/<rect class="bar/g) ?? []).length;
  const withCi = [...groups.flatMap((g) => [r.byPersonaDifficulty[g]!]), ...Object.values(r.byAgent)].flatMap((a) => [a.tcr !== null && a.ci.tcr, a.hr !== null && a.ci.hr]).filter(Boolean).length;
  assert.equal((html.match(/class="whisker"/g) ?? []).length, withCi, 'every drawn bar with an interval has its whisker');
  assert.equal(drawn, groups.length * 2 + Object.keys(r.byAgent).length * 2);
});

test('the summary shows the headline intervals and one bar pair per agent', () => {
  const r = reportOf(twoAgents());
  const html = renderSummary(r);
  const ci = r.overall.ci.tcr!;
  assert.ok(ci[0] < ci[1], 'the fixture has a real interval');
  assert.ok(html.includes(`95% CI [${(ci[0] * 100).toFixed(1)}, ${(ci[1] * 100).toFixed(1)}]`), 'the TCR interval is printed');
  const hr = r.overall.ci.hr!;
  assert.ok(html.includes(`95% CI [${(hr[0] * 100).toFixed(1)}, ${(hr[1] * 100).toFixed(1)}]`), 'the HR interval is printed');
  assert.equal(attr(html, 'tcr:alpha').length, 1);
  assert.equal(attr(html, 'hr:alpha').length, 1);
  assert.equal(Object.keys(r.byAgent).length, 2);
  assert.match(html, /Kendall tau-b of the agent ranking/);
  assert.match(html, /pass\^1/);
});

test('untrusted case ids, agent names and findings are escaped; the page references nothing outside itself', () => {
  const html = renderSummary(reportOf(twoAgents()));
  const scripts = [...html.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)];
  assert.equal(scripts.length, 1, 'one script element: the case filters');
  assert.equal(`sha256-${createHash('sha256').update(scripts[0]![1]!).digest('base64')}`, FILTER_SCRIPT_HASH, 'the CSP allows exactly that script');
  assert.ok(html.includes(`script-src '${FILTER_SCRIPT_HASH}'`));
  assert.ok(!/fetch|XMLHttpRequest|import|WebSocket|\.src|location/.test(scripts[0]![1]!), 'the filter script reaches nothing');
  assert.ok(!html.includes('<img'), 'the agent name does not become an element');
  assert.ok(!html.includes('<svg onload'), 'the finding does not become an element');
  assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;_P-MIN'), 'the case id is shown, escaped');
  assert.ok(html.includes('&lt;img src=x onerror=alert(2)&gt;'));
  assert.ok(html.includes('&quot;&gt;&lt;svg onload=alert(3)&gt;'));
  assert.ok(!/https?:\/\//.test(html), 'no http(s) reference');
  assert.match(html, /Content-Security-Policy" content="default-src 'none'/);
});

test('null metrics and a single agent render without a bar, as a dash', () => {
  const r = reportOf([
    { id: 'x_P-MIN', agent: 'solo', positives: ['errored', 'unjudged'] },
    { id: 'y_P-INT', agent: 'solo', persona: 'P-INT', difficulty: 'middle', positives: ['pass'] },
  ]);
  assert.equal(r.byPersonaDifficulty['P-MIN/easy']!.tcr, null);
  const html = renderSummary(r);
  assert.equal(attr(html, 'tcr:P-MIN/easy').length, 0, 'no bar for an undefined TCR');
  assert.equal(attr(html, 'tcr:P-INT/middle').length, 1);
  assert.match(html, /<text class="na"[^>]*>—<\/text>/);
  assert.match(html, /— \(needs 2 agents\)/);
  const empty = renderSummary(buildReport([], { startedAt: 't', durationMs: 0, dataset: 'd', agents: [], playwrightStatus: 'failed' }));
  assert.match(empty, /0 cases/);
  assert.ok(!empty.includes('<rect'), 'nothing to draw');
});

let tmp: string;
before(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-summary-'));
});
after(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

/** One passed slot test as Playwright hands it to a reporter: only the fields the reporter reads. */
function slotTest(sandbox?: string): { test: TestCase; result: TestResult } {
  const slot = { caseId: 't_P-MIN', taskId: 't', persona: 'P-MIN', difficulty: 'easy', slotId: 's1', targetComponent: 'C', assertionType: 'POSITIVE', weight: 1, cTech: 1 };
  const test = { id: 'x1', repeatEachIndex: 0, annotations: [{ type: ANNOTATION.slot, description: JSON.stringify(slot) }] } as unknown as TestCase;
  Object.assign(test, { parent: { allTests: () => [test] } });
  const verdict = { type: ANNOTATION.verdict, description: JSON.stringify({ status: 'pass', judge: 'probe', evidence: 'ok' }) };
  const episode = sandbox ? [{ type: ANNOTATION.episode, description: JSON.stringify(episodeAnnotation({ sandbox })) }] : [];
  const result = { status: 'passed', annotations: [verdict, ...episode] } as unknown as TestResult;
  return { test, result };
}

/** Runs the reporter over one slot test, returning what it printed. */
async function endRun(name: string, htmlReportDir: string, sandbox?: string): Promise<string> {
  const saved = process.env.PLAYWRIGHT_HTML_OUTPUT_DIR;
  delete process.env.PLAYWRIGHT_HTML_OUTPUT_DIR;
  const reporter = new IwbReporter({ outputDir: path.join(tmp, name), dataset: 'd', prices: '', htmlReportDir });
  const one = slotTest(sandbox);
  reporter.onBegin({} as FullConfig, { allTests: () => [one.test] } as unknown as Suite);
  const printed: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string) => printed.push(chunk) > 0) as typeof process.stdout.write;
  const writeErr = process.stderr.write.bind(process.stderr);
  process.stderr.write = (() => true) as typeof process.stderr.write;
  try {
    reporter.onTestEnd(one.test, one.result);
    await reporter.onEnd({ status: 'passed', startTime: new Date(), duration: 1000 } as FullResult);
  } finally {
    process.stdout.write = write;
    process.stderr.write = writeErr;
    if (saved !== undefined) process.env.PLAYWRIGHT_HTML_OUTPUT_DIR = saved;
  }
  return printed.join('');
}

test('the reporter writes summary.html, copies it into an html report written this run, and not into a stale one', async () => {
  const fresh = path.join(tmp, 'pw-fresh');
  await fs.mkdir(fresh);
  await fs.writeFile(path.join(fresh, 'index.html'), '<html></html>');
  const out = await endRun('fresh', fresh);
  const summary = path.join(tmp, 'fresh', 'summary.html');
  assert.equal(await fs.readFile(path.join(fresh, 'summary.html'), 'utf8'), await fs.readFile(summary, 'utf8'));
  assert.match(out.trimEnd().split('\n').at(-1)!, new RegExp(`summary: ${summary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`), 'the last line names the summary');

  const stale = path.join(tmp, 'pw-stale');
  await fs.mkdir(stale);
  await fs.writeFile(path.join(stale, 'index.html'), '<html></html>');
  const hourAgo = new Date(Date.now() - 3_600_000);
  await fs.utimes(path.join(stale, 'index.html'), hourAgo, hourAgo);
  await endRun('stale', stale);
  await assert.rejects(fs.stat(path.join(stale, 'summary.html')), { code: 'ENOENT' });

  const absent = path.join(tmp, 'pw-absent');
  await endRun('absent', absent);
  await assert.rejects(fs.stat(absent), { code: 'ENOENT' }, 'no html report folder is made up');
  assert.match(await fs.readFile(path.join(tmp, 'absent', 'summary.html'), 'utf8'), /^<!doctype html>/);
});

test('report.json records the isolation the episodes ran in (meta.sandbox)', async () => {
  await endRun('sandboxed', path.join(tmp, 'no-html-1'), 'bwrap');
  assert.equal(JSON.parse(await fs.readFile(path.join(tmp, 'sandboxed', 'report.json'), 'utf8')).meta.sandbox.isolation, 'bwrap');
  await endRun('unsaid', path.join(tmp, 'no-html-2'));
  assert.equal(JSON.parse(await fs.readFile(path.join(tmp, 'unsaid', 'report.json'), 'utf8')).meta.sandbox.isolation, 'unknown');
});
