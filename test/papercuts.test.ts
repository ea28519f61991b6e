import assert from 'node:assert/strict';
import { test } from 'node:test';
import { episodeOrigins, formatMarkdown, formatText } from '../reporters/format.js';
import { inReadingOrder } from '../reporters/group-order.js';
import { renderSummary } from '../reporters/html-summary.js';
import { buildReport } from '../reporters/report.js';
import { slotAnnotation } from '../protocol/build.js';
import { slotTestDetails } from '../specs/cases.js';
import { weightText } from '../slots/weights.js';
import { records, reportOf, type CaseSpec } from './report-support.js';
import type { Case, WeightedSlot } from '../slots/schema.js';

// Cases listed hard first and alphabetically last-to-first, so neither arrival order nor sort() gives reading order.
const CASES: CaseSpec[] = [
  { id: 't3_P-CON', agent: 'a1', persona: 'P-CON', difficulty: 'hard', positives: ['pass', 'fail', 'pass'], weights: [4 / 3, 4 / 3, 1] },
  { id: 't2_P-INT', agent: 'a1', persona: 'P-INT', difficulty: 'middle', positives: ['pass'] },
  { id: 't1_P-MIN', agent: 'a1', persona: 'P-MIN', difficulty: 'easy', positives: ['fail'] },
];

/** The order in which the names first appear in a text. */
const orderIn = (text: string, names: readonly string[]) => [...names].sort((a, b) => text.indexOf(a) - text.indexOf(b));

test('papercuts: difficulty reads easy, middle, hard in report.json, report.md, the terminal and an old report', () => {
  const r = reportOf(CASES);
  assert.deepEqual(Object.keys(r.byDifficulty), ['easy', 'middle', 'hard']);
  assert.deepEqual(Object.keys(r.byPersona), ['P-MIN', 'P-INT', 'P-CON'], "personas in the paper's order, as the summary shows them");
  assert.deepEqual(Object.keys(r.byPersonaDifficulty), ['P-MIN/easy', 'P-INT/middle', 'P-CON/hard']);
  const terminal = formatText(r).split('\n').map((l) => l.split(/\s+/)[0]!);
  assert.deepEqual(terminal.filter((w) => ['easy', 'middle', 'hard'].includes(w)), ['easy', 'middle', 'hard']);
  const md = formatMarkdown(r);
  const byDifficulty = md.slice(md.indexOf('## TCR by difficulty'), md.indexOf('## Every metric'));
  assert.deepEqual(orderIn(byDifficulty, ['easy TCR', 'middle TCR', 'hard TCR']), ['easy TCR', 'middle TCR', 'hard TCR']);
  // A report.json written before the fix holds its groups alphabetically; the formatters still read them in order.
  const old = { ...r, byDifficulty: { easy: r.byDifficulty.easy!, hard: r.byDifficulty.hard!, middle: r.byDifficulty.middle! } };
  assert.deepEqual(inReadingOrder(old.byDifficulty).map(([k]) => k), ['easy', 'middle', 'hard']);
  const oldMd = formatMarkdown(old);
  assert.deepEqual(orderIn(oldMd.slice(oldMd.indexOf('## Every metric')), ['| easy |', '| middle |', '| hard |']), ['| easy |', '| middle |', '| hard |']);
});

test('papercuts: weights read to three decimals on pages and sheets, in full in JSON', () => {
  assert.equal(weightText(4 / 3), '1.333');
  assert.equal(weightText(1.5), '1.5');
  assert.equal(weightText(2), '2');
  const r = reportOf(CASES);
  const summary = renderSummary(r);
  assert.match(summary, /weight 1\.333:/);
  assert.doesNotMatch(summary, /1\.33333/, 'no float noise where a person reads');
  assert.match(JSON.stringify(r), /"weight":1\.3333333333333333/, 'report.json keeps the full number');
  const slot = { id: 's1', targetComponent: 'C', assertionType: 'POSITIVE', weight: 4 / 3, cTech: 2 } as WeightedSlot;
  const c = { id: 't_P-MIN', taskId: 't', persona: 'P-MIN', difficulty: 'easy', task: { category: 'x' } } as unknown as Case;
  const details = slotTestDetails(c, slot);
  assert.equal(details.annotation.find((a) => a.type === 'weight')?.description, '1.333', 'the Playwright report shows the rounded weight');
  assert.match(slotAnnotation(c, slot).description ?? '', /"weight":1\.3333333333333333/, 'the machine annotation keeps it whole');
});

test('papercuts: a report that does not know where an episode came from says unknown, not 0 from cache', () => {
  const r = reportOf(CASES);
  assert.equal(episodeOrigins(r.episodes), '3 ran, 0 from cache');
  // A case whose slot records carry no episode (an old shard's blob, a crashed fixture) is neither ran nor cached.
  const bare = records({ id: 't9_P-RAM', agent: 'a1', persona: 'P-RAM', positives: ['pass'] }).map(({ episode: _e, ...rest }) => rest);
  const mixed = buildReport([...CASES.flatMap(records), ...bare], { startedAt: '2026-01-02T03:04:05.000Z', durationMs: 0, dataset: 'test', agents: ['a1'], playwrightStatus: 'passed' });
  assert.equal(episodeOrigins(mixed.episodes), '3 ran, 0 from cache, 1 unknown (no episode record)');
  assert.match(formatText(mixed), /^episodes: 3 ran, 0 from cache, 1 unknown/m);
  assert.match(renderSummary(mixed), /\(duration unknown, Playwright/, 'a zero duration is shown as unknown, not "(0 s)"');
  assert.doesNotMatch(renderSummary(mixed), /\(0 s/);
  assert.match(renderSummary(r), /\(1 s, Playwright/);
});
