import assert from 'node:assert/strict';
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import type { Trajectory } from '../agent/trajectory.js';
import { renderCasePage } from '../reporters/case-page.js';
import { caseHref, caseSlug, copyCaseAssets, gatherCaseViews } from '../reporters/case-view.js';
import { episodeAnnotation, records, reportOf } from './report-support.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');
const HOSTILE = '<script>fetch("http://evil.example")</script>';

function trajectory(): Trajectory {
  const usage = { promptTokens: 10, completionTokens: 5 };
  return {
    schemaVersion: 1, caseId: 'c_P-CON', persona: 'P-CON', difficulty: 'easy', agent: { name: 'a1', config: {} }, caseHash: 'h', stepCap: 15,
    status: 'submitted', startedAt: '2026-01-01T00:00:00Z', durationMs: 4200,
    steps: [
      { index: 0, action: 'clarify', args: { question: 'Which colour?' }, observation: '', latencyMs: 5, usage,
        userTurn: { question: 'Which colour?', answer: `Blue. ${HOSTILE}`, retrievedSlotIds: ['s1'], leakCheck: { leakedSlotIds: [], method: 'lexical' }, retries: 0, refused: false, tokens: { prompt: 3, completion: 2 }, stances: [{ slotId: 's1', stance: 'defend' }] } },
      { index: 1, action: 'implement', args: { files: [{ path: 'index.html', bytes: 1234 }], deletes: [] }, observation: 'wrote index.html', latencyMs: 7, reasoning: 'plan the page' },
      { index: 2, action: 'verify', args: { path: '/' }, observation: 'saw it', latencyMs: 9, screenshot: 'shots/step-02.png',
        audit: { criteria: 'the heading is blue', model: 'cop-1', passed: false, error: false, report: 'heading is black', turns: [{ thought: 'look', action: 'click 3', outcome: 'nothing happened', frame: 'shots/audit-02-0.png' }], failedInARow: 1, failureLimit: 3, usage } },
      { index: 3, action: 'submit', args: {}, observation: 'submitted', latencyMs: 1 },
    ],
    counts: { clarify: 1, implement: 1, verify: 1, submit: 1, invalid: 0 }, questionBeforeCode: true, linesOfCode: 40, files: ['index.html'], tokens: usage,
  };
}

test('case page: conversation, stances, implements, verify shot and audit frames, slots with judge screenshots; hostile text stays text', async () => {
  const run = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-case-page-'));
  await fs.mkdir(path.join(run, 'shots'));
  await fs.writeFile(path.join(run, 'trajectory.json'), JSON.stringify(trajectory()));
  for (const f of ['shots/step-02.png', 'shots/audit-02-0.png', 'final.png']) await fs.writeFile(path.join(run, f), PNG);
  await fs.writeFile(path.join(run, 'agent-stderr.log'), 'agent log line\n');
  const spec = { id: 'c_P-CON', agent: 'a1', persona: 'P-CON' as const, positives: ['pass' as const], negatives: ['fail' as const] };
  const recs = records(spec).map((r, i) => ({
    ...r,
    episode: episodeAnnotation({ runFolder: run }),
    evidence: i === 0 ? 'heading found' : `a sign-up form is there ${HOSTILE}`,
    judge: 'llm-som:j',
    images: i === 1 ? [{ name: 'judge s2 step 1', body: PNG }] : [],
  }));
  const report = reportOf([spec]);
  const [view] = await gatherCaseViews(report.cases, recs, undefined);
  assert.ok(view && view.trajectory, view?.trajectoryNote);
  const out = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-case-page-out-'));
  const shots = await copyCaseAssets(view, out);
  assert.deepEqual([...shots.keys()].sort(), ['audit:2:0', 'final', 'slot:' + recs[1]!.slotId + ':0', 'stderr', 'step:2'].sort());
  const html = renderCasePage(view, shots);
  await fs.writeFile(path.join(out, view.href), html);

  assert.equal(view.href, caseHref(report.cases[0]!));
  assert.ok(!html.includes('<script'), 'hostile answer and evidence are escaped');
  for (const want of ['Agent asks:</b> Which colour?', 'Blue. &lt;script&gt;', 's1 defend', 'index.html</td><td class="num">1234', 'Audit by cop-1', 'heading is black', 'click 3: nothing happened', 'plan the page', 'llm-som:j', '4.2 s', 'not available (the dataset is not loaded here)']) {
    assert.ok(html.includes(want), `shows ${want}`);
  }
  const links = [...html.matchAll(/\s(?:href|src)="([^"]+)"/g)].map((m) => m[1]!).filter((l) => l !== '../summary.html');
  assert.equal(links.filter((l) => l.endsWith('.png')).length, 2 * 4, 'four images, each linked and shown');
  for (const l of links) assert.ok(existsSync(path.resolve(path.dirname(path.join(out, view.href)), l)), `${l} resolves`);
  assert.equal((html.match(/loading="lazy"/g) ?? []).length, 4, 'every image loads lazily');
  if (process.env.CASE_PAGE_KEEP) console.log(path.join(out, view.href));
  else await Promise.all([run, out].map((d) => fs.rm(d, { recursive: true, force: true })));
});

test('case page: a run folder that is not on this machine is said, not invented; slugs are unique per agent, case and trial', async () => {
  const spec = { id: 'c_P-MIN', agent: 'a/b c', positives: ['pass' as const] };
  const recs = records(spec).map((r) => ({ ...r, episode: episodeAnnotation({ agent: 'a/b c', runFolder: '/nowhere/run' }), images: [] }));
  const [view] = await gatherCaseViews(reportOf([spec]).cases, recs, undefined);
  assert.match(view!.trajectoryNote!, /the run folder \/nowhere\/run is not on this machine/);
  assert.match(renderCasePage(view!, new Map()), /not on this machine/);
  assert.notEqual(caseSlug('a', 'x', 0), caseSlug('a', 'x', 1));
  assert.notEqual(caseSlug('a/b', 'x', 0), caseSlug('a_b', 'x', 0), 'names that sanitise alike still differ');
  assert.match(caseSlug('a/b c', 'x', 0), /^[A-Za-z0-9_.-]+$/);
});

test('case page: a case the crash rule failed says so at the top and under the final page, with the errors it saw; a site that passed the check says nothing', async () => {
  const spec = { id: 'c_P-MIN', agent: 'a1', positives: ['fail' as const], negatives: ['fail' as const] };
  const crash = { crashed: true, reason: 'analytics: failed to start the tracker', errors: ['analytics: failed to start the tracker', `uncaught Error: ${HOSTILE}`] };
  const visual = { bug: true, findings: ['console-error: analytics: failed to start the tracker'], crash };
  const recs = records(spec).map((r) => ({ ...r, visual, judge: 'crash-rule', evidence: 'crashed on load: analytics: failed to start the tracker', images: [] }));
  const [view] = await gatherCaseViews(reportOf([{ ...spec, visual }]).cases, recs, undefined);
  const html = renderCasePage(view!, new Map());
  assert.ok(!html.includes('<script'), 'the page\'s own error text is escaped');
  const top = html.slice(0, html.indexOf('<h2>'));
  assert.match(top, /crashed on load/, 'the header says why every slot failed');
  const final = html.slice(html.indexOf('<h2>Final page</h2>'), html.indexOf('<h2>Slots</h2>'));
  assert.match(final, /Crashed on load<\/b> \(the profile's crash rule\): analytics: failed to start the tracker\./);
  assert.ok(final.includes('<li><code>uncaught Error: &lt;script&gt;'), 'every error the check saw is listed');
  assert.ok(final.indexOf('Crashed on load') < final.indexOf('visual findings'), 'the crash comes before the visual findings it explains');

  const clean = records(spec).map((r) => ({ ...r, visual: { bug: false, findings: [], crash: { crashed: false, errors: [] } }, images: [] }));
  const [ok] = await gatherCaseViews(reportOf([spec]).cases, clean, undefined);
  assert.ok(!/crashed on load/i.test(renderCasePage(ok!, new Map())));
});
