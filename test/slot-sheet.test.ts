import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { ANNOTATION } from '../protocol/annotations.js';
import { caseHref } from '../reporters/case-view.js';
import { renderSlotSheet, slotCaseHref, slotSheetRows } from '../fixtures/slot-sheet.js';
import { loadDataset } from '../slots/load.js';
import { slotLocation } from '../specs/slot-location.js';
import { episodeAnnotation } from './report-support.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

test('a slot test reads as short rows (verdict, evidence, episode, who judged it, the final page), and its sheet links to its case page and the summary', async () => {
  const c = (await loadDataset('builtin')).cases.find((x) => x.id === 'tip-calculator_P-MIN')!;
  const slot = c.slots[1]!;
  const annotations = [
    { type: ANNOTATION.episode, description: JSON.stringify(episodeAnnotation({ agent: 'py-echo', status: 'step-cap', steps: 15, stepCap: 15, cached: true })) },
    { type: ANNOTATION.judging, description: JSON.stringify({ by: c.slots[0]!.id, ms: 1234 }) },
    { type: ANNOTATION.visual, description: JSON.stringify({ bug: true, findings: ['horizontal overflow'] }) },
  ];
  const rows = slotSheetRows(slot.id, { status: 'fail', judge: 'probe', evidence: 'step 2/3 (click): target not found' }, annotations);
  assert.deepEqual(Object.fromEntries(rows), {
    verdict: 'fail (probe)',
    evidence: 'step 2/3 (click): target not found',
    episode: 'step-cap after 15 of 15 steps · agent py-echo · from an earlier run',
    judged: `ahead, by slot ${c.slots[0]!.id}'s test, 1.2 s`,
    'final page': 'horizontal overflow',
  });
  const href = slotCaseHref(c.id, 0, annotations);
  assert.equal(href, caseHref({ agent: 'py-echo', id: c.id, trial: 0 }), 'the page the iwb reporter writes for this agent, case and trial');
  const html = renderSlotSheet('t', rows, href);
  // The sheet is copied into the HTML report's data/ folder: one level below summary.html and cases/.
  assert.ok(html.includes(`href="../${href}"`));
  assert.ok(html.includes('href="../summary.html"'));
  assert.doesNotMatch(html, /<script|https?:/);
});

test('a row never carries raw markup from the evidence', () => {
  const html = renderSlotSheet('x', [['evidence', '<img src=x onerror=alert(1)>']], 'cases/x.html');
  assert.ok(!html.includes('<img'));
});

test('each slot test points at its slot: the line of its id in task.json, or the line of a JSONL record', async () => {
  const c = (await loadDataset('builtin')).cases.find((x) => x.id === 'bakery-menu_P-MIN')!;
  const text = (await fs.readFile(path.join(ROOT, 'tasks/bakery-menu/task.json'), 'utf8')).split('\n');
  for (const slot of c.slots) {
    const at = slotLocation(c, slot)!;
    assert.equal(at.file, path.join(ROOT, 'tasks/bakery-menu/task.json'));
    assert.match(text[at.line - 1]!, new RegExp(`"id":\\s*"${slot.id}"`), `${slot.id} at line ${at.line}`);
  }
  const jsonl = { ...c, task: { ...c.task, source: path.join(ROOT, 'package.json') + ':7' } };
  assert.deepEqual(slotLocation(jsonl, c.slots[0]!), { file: path.join(ROOT, 'package.json'), line: 7 });
  assert.equal(slotLocation({ ...c, task: { ...c.task, source: 'webgen:123' } }, c.slots[0]!), null, 'not a file: Playwright keeps its own location');
});

test('Playwright lists the slot tests at their task file lines, not at the loop that declares them', async () => {
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-slot-location-'));
  try {
    const run = spawnSync('npx', ['playwright', 'test', '--list', '--project=p-min', '--grep', '@task-bakery-menu(?=\\s|$)', '--reporter=list'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, IWB_RUN_DIR: path.join(tmp, 'runs'), IWB_REPORT_DIR: path.join(tmp, 'report') },
    });
    assert.equal(run.status, 0, run.stderr);
    const listed = run.stdout.split('\n').filter((l) => l.includes('bakery-menu_P-MIN'));
    assert.ok(listed.length >= 6, run.stdout);
    for (const l of listed) assert.match(l, /tasks\/bakery-menu\/task\.json:\d+:\d+ › /, l);
    assert.doesNotMatch(run.stdout, /declare\.ts/);
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
});
