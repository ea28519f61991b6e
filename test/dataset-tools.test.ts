import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { datasetCommand } from '../cli/dataset.js';
import { readSettings } from '../config/settings.js';
import { breakdownMarkdown } from '../reporters/format-breakdowns.js';
import { renderSummary } from '../reporters/html-summary.js';
import { buildReport } from '../reporters/report.js';
import { ReportSchema } from '../reporters/report-schema.js';
import { datasetJsonSchemas, schemaText } from '../slots/json-schema.js';
import { goldFacts, lintTasks } from '../slots/lint.js';
import { loadDataset } from '../slots/load.js';
import { rawCheckJsonl } from '../slots/raw-check.js';
import type { Task } from '../slots/schema.js';
import { assignSplits, withSplits, type SplitTask } from '../slots/split.js';
import { records } from './report-support.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const capture = () => {
  const out: string[] = [];
  return { out: (t: string) => out.push(t), err: (t: string) => out.push(t), text: () => out.join('\n') };
};

test('JSON Schemas in schemas/ are the ones generated from the zod schemas (run `npx iwb dataset schema` after a change)', async () => {
  for (const [file, schema] of Object.entries(datasetJsonSchemas())) {
    const committed = await fs.readFile(path.join(ROOT, 'schemas', file), 'utf8').catch(() => '(missing)');
    assert.equal(committed, schemaText(schema), `schemas/${file} is out of date`);
  }
  const task = datasetJsonSchemas()['task.schema.json'] as { properties: Record<string, unknown>; required: string[] };
  assert.ok(task.required.includes('slots') && 'personas' in task.properties);
});

const slot = (id: string, text: string, type: 'POSITIVE' | 'NEGATIVE' = 'POSITIVE') => ({ id, task: text, expectedResult: text, targetComponent: 'C', assertionType: type, cTech: 1 as const });
const task = (over: Partial<Task>): Task => ({ id: 't', title: 't', category: 'User Interaction', goldInstruction: 'x', slots: [], personas: {}, source: 'here', ...over });

test('lint: tasks without a NEGATIVE slot, personas equal to the gold, gold facts no slot tests', () => {
  assert.deepEqual(goldFacts('A "Save" button in teal, at most 8 guests for £39.00; 1,240 crates.').map((f) => `${f.kind}:${f.text}`).sort(), ['colour:teal', 'label:Save', 'number:1,240', 'number:8', 'number:£39.00'].sort());
  const gold = 'A teal header and a "Book table" button; at most 8 guests.';
  const findings = lintTasks([
    task({ id: 'a', goldInstruction: gold, slots: [slot('s1', 'The header is teal.'), slot('s2', 'A Book table button; 8 guests at most.'), slot('s3', 'nothing extra', 'NEGATIVE')], personas: { 'P-MIN': { instruction: 'a booking page' } } }),
    task({ id: 'b', goldInstruction: gold, slots: [slot('s1', 'The header is navy.')], personas: { 'P-RAM': { instruction: ` ${gold.toUpperCase()} ` } } }),
  ]);
  assert.deepEqual(findings.tasksWithoutNegative, ['b']);
  assert.deepEqual(findings.personaEqualsGold, [{ task: 'b', persona: 'P-RAM' }]);
  assert.deepEqual(findings.untestedGoldFacts.map((u) => [u.task, u.facts.map((f) => f.text).sort()]), [['b', ['8', 'Book table', 'teal']]]);
  assert.deepEqual(findings.goldFacts, { found: 6, tested: 3 });
});

test('dataset check: duplicate ids and slots without a target component are all listed, with file, line and field', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-check-'));
  const rec = (id: string, persona: string, slots: object[]) => JSON.stringify({ id, original_id: 'T1', persona, instruction: 'i', ground_truth_instruction: 'g', oracle_slots: slots });
  const ok = { id: 's1', original_task: 't', expected_result: 'e', target_component: 'C', assertion_type: 'POSITIVE', c_tech: 1 };
  const file = path.join(dir, 'bad.jsonl');
  await fs.writeFile(file, [rec('T1_P-MIN', 'P-MIN', [ok, ok]), rec('T1_P-MIN', 'P-RAM', [ok]), rec('T1_P-INT', 'P-MIN', [{ ...ok, id: 's2', target_component: '' }])].join('\n'));
  const found = await rawCheckJsonl(file);
  assert.deepEqual(found.map((f) => `${f.where.split(path.sep).pop()} ${f.field} ${f.kind}`), [
    'bad.jsonl:1 oracle_slots[1].id duplicate id',
    'bad.jsonl:2 id duplicate id',
    'bad.jsonl:3 original_id + persona duplicate id',
    'bad.jsonl:3 oracle_slots[0].target_component missing target component',
  ]);
  const io = capture();
  assert.equal(await datasetCommand(['check', file], io), 3, 'the exit code a run gives the same file');
  assert.match(io.text(), /4 problem\(s\)/);
  await fs.rm(dir, { recursive: true, force: true });
});

test('dataset check builtin: no duplicates, every task guarded by a NEGATIVE slot, no persona equal to the gold', async () => {
  const io = capture();
  assert.equal(await datasetCommand(['check', 'builtin', '--json'], io), 0);
  const r = JSON.parse(io.text()) as { tasks: number; errors: unknown[]; lint: ReturnType<typeof lintTasks> };
  assert.equal(r.tasks, 24);
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.lint.tasksWithoutNegative, []);
  assert.deepEqual(r.lint.personaEqualsGold, []);
  assert.ok(r.lint.goldFacts.tested / r.lint.goldFacts.found > 0.8, `most gold facts are tested: ${JSON.stringify(r.lint.goldFacts)}`);
});

test('split: seeded, stratified by difficulty x category, 80/20, independent of input order', () => {
  const tasks: SplitTask[] = [];
  for (let i = 0; i < 101; i++) tasks.push({ id: `t${String(i).padStart(3, '0')}`, category: ['A', 'B', 'C'][i % 3]!, difficulty: (['easy', 'middle', 'middle', 'hard'] as const)[i % 4]! });
  const a = assignSplits(tasks);
  const b = assignSplits([...tasks].reverse());
  assert.deepEqual([...a].sort(), [...b].sort());
  const holdout = tasks.filter((t) => a.get(t.id) === 'holdout');
  assert.equal(holdout.length, 20);
  for (const key of new Set(tasks.map((t) => `${t.difficulty}|${t.category}`))) {
    const n = tasks.filter((t) => `${t.difficulty}|${t.category}` === key).length;
    const h = holdout.filter((t) => `${t.difficulty}|${t.category}` === key).length;
    assert.ok(Math.abs(h - n * 0.2) < 1, `stratum ${key}: ${h} of ${n}`);
  }
  assert.notDeepEqual([...assignSplits(tasks, 1)].sort(), [...a].sort(), 'another seed, another split');
});

test('IWB_SPLIT selects dev or hold-out cases of the built-in dataset; both label every case', async () => {
  assert.equal(readSettings({ IWB_SPLIT: 'holdout' }).split, 'holdout');
  assert.throws(() => readSettings({ IWB_SPLIT: 'test' }), /IWB_SPLIT/);
  const d = await loadDataset('builtin');
  const dev = withSplits(d, 'dev'), hold = withSplits(d, 'holdout'), all = withSplits(d, 'all');
  assert.equal(dev.tasks.length + hold.tasks.length, 24);
  assert.equal(hold.tasks.length, 5);
  assert.equal(all.cases.length, 96);
  assert.ok(dev.cases.every((c) => c.split === 'dev') && hold.cases.every((c) => c.split === 'holdout'));
});

test('report breakdowns: dev and hold-out side by side with the difference, primary and test categories', () => {
  const recs = [
    ...records({ id: 'a_P-MIN', agent: 'x', positives: ['pass', 'pass'], negatives: ['pass'] }).map((r, i) => ({ ...r, split: 'dev' as const, category: 'Data Management', ...(i < 2 ? { testCategory: 'Functional Testing' } : {}) })),
    ...records({ id: 'b_P-MIN', agent: 'x', positives: ['pass', 'fail'], negatives: ['pass'] }).map((r, i) => ({ ...r, split: 'dev' as const, category: 'Data Management', ...(i === 0 ? { testCategory: 'Functional Testing' } : i === 1 ? { testCategory: 'Design Validation Testing' } : {}) })),
    ...records({ id: 'c_P-MIN', agent: 'x', positives: ['fail', 'fail'], negatives: ['fail'] }).map((r) => ({ ...r, split: 'holdout' as const, category: 'User Interaction' })),
  ];
  const r = buildReport(recs, { startedAt: 's', durationMs: 1, dataset: 'd', agents: ['x'], playwrightStatus: 'passed' }, { bootstrap: { resamples: 300, seed: 1, level: 0.95 } });
  ReportSchema.parse(JSON.parse(JSON.stringify(r)));
  const b = r.breakdowns!;
  assert.equal(b.bySplit.dev!.tcr, 0.75);
  assert.equal(b.bySplit.holdout!.tcr, 0);
  assert.equal(b.splitDifference!.tcr.difference, 0.75);
  assert.equal(b.splitDifference!.hr.difference, -1);
  const [lo, hi] = b.splitDifference!.tcr.ci!;
  assert.ok(lo <= 0.75 && 0.75 <= hi);
  assert.deepEqual(Object.keys(b.byCategory).sort(), ['Data Management', 'User Interaction']);
  assert.equal(b.byTestCategory['Functional Testing']!.tcr, 1);
  assert.equal(b.byTestCategory['Design Validation Testing']!.tcr, 0);
  assert.equal(b.byTestCategory['Functional Testing']!.slots, 3);
  const md = breakdownMarkdown(r).join('\n');
  assert.match(md, /## Dev and hold-out/);
  assert.match(md, /dev − hold-out \| \+75\.0 \[/);
  assert.match(md, /## By WebGen-Bench test category/);
  assert.match(renderSummary(r), /By primary category/);
  // A run without splits shows no split table, and nothing pretends there was one.
  const plain = buildReport(records({ id: 'a_P-MIN', agent: 'x', positives: ['pass'] }), { startedAt: 's', durationMs: 1, dataset: 'd', agents: ['x'], playwrightStatus: 'passed' });
  assert.deepEqual(plain.breakdowns!.bySplit, {});
  assert.equal(plain.breakdowns!.splitDifference, null);
  assert.doesNotMatch(breakdownMarkdown(plain).join('\n'), /hold-out/);
});
