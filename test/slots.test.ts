import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { difficultyPartition, optimalSse1d, partitionSse } from '../slots/difficulty.js';
import { DatasetError } from '../slots/errors.js';
import { loadDataset } from '../slots/load.js';
import { slotWeights, totalWeight } from '../slots/weights.js';

const slot = (targetComponent: string, cTech: 1 | 2 | 3) => ({ targetComponent, cTech });

test('a lone slot weighs its c_tech; a group of N shares 1 + 0.5 (N - 1) times c_tech', () => {
  assert.deepEqual(slotWeights([slot('a', 2)]), [2]);
  // Group of 3 at c_tech 1: each 1 * (1 + 1) / 3.
  const w = slotWeights([slot('g', 1), slot('g', 1), slot('g', 1), slot('h', 3)]);
  assert.ok(Math.abs(w[0]! - 2 / 3) < 1e-12);
  assert.equal(w[3], 3);
  // Mixed c_tech in one group: 3 * 1.5 / 2 and 1 * 1.5 / 2.
  assert.deepEqual(slotWeights([slot('x', 3), slot('x', 1)]), [2.25, 0.75]);
  assert.equal(totalWeight([slot('x', 3), slot('x', 1)]), 3);
});

test('K-means names clusters by ascending centroid and is deterministic', () => {
  const values = [1, 1.2, 0.9, 5, 5.5, 4.8, 10, 11, 10.5, 1.1];
  const a = difficultyPartition(values);
  const b = difficultyPartition(values);
  assert.deepEqual(a, b);
  assert.deepEqual(a.labels, ['easy', 'easy', 'easy', 'middle', 'middle', 'middle', 'hard', 'hard', 'hard', 'easy']);
  assert.ok(a.centroids[0]! < a.centroids[1]! && a.centroids[1]! < a.centroids[2]!);
  assert.ok(Math.abs(a.sse - optimalSse1d(values)) < 1e-9);
});

test('the restarted K-means reaches the exact 1-D optimum where one seed would not', () => {
  // Seeded random data with several local optima.
  let s = 7;
  const rand = () => ((s = (s * 16807) % 2147483647) / 2147483647);
  for (let trial = 0; trial < 5; trial++) {
    const values = Array.from({ length: 60 }, () => Math.round(rand() * 200) / 10);
    const p = difficultyPartition(values);
    assert.ok(Math.abs(p.sse - optimalSse1d(values)) < 1e-6, `trial ${trial}: ${p.sse} vs ${optimalSse1d(values)}`);
  }
});

test('partitionSse and degenerate inputs', () => {
  assert.equal(partitionSse([1, 3, 10], ['a', 'a', 'b']), 2);
  assert.deepEqual(difficultyPartition([]).labels, []);
  assert.deepEqual(difficultyPartition([4, 4]).labels, ['middle', 'middle']);
  assert.deepEqual(difficultyPartition([1, 9, 1]).labels, ['easy', 'hard', 'easy']);
});

async function tmpJsonl(lines: unknown[]): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-ds-'));
  const file = path.join(dir, 'd.jsonl');
  await fs.writeFile(file, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
  return file;
}

const record = (persona: string, overrides: Record<string, unknown> = {}) => ({
  id: `t1_${persona}`,
  original_id: 't1',
  persona,
  instruction: `make a page (${persona})`,
  ground_truth_instruction: 'Make a page with a blue header and a contact form.',
  difficulty: 'easy',
  oracle_slots: [
    { original_task: 'look at header', expected_result: 'blue', target_component: 'Header', assertion_type: 'POSITIVE', c_tech: 1.0, final_weight: 0.75 },
    { original_task: 'header text', expected_result: 'title', target_component: 'Header', assertion_type: 'POSITIVE', c_tech: 1.0, final_weight: 0.75 },
    { original_task: 'nothing else', expected_result: 'no login', target_component: 'Unrequested_Element_Feature', assertion_type: 'NEGATIVE', c_tech: 1.0, final_weight: 1 },
  ],
  ...overrides,
});

test('JSONL loader groups personas into tasks, keeps the stored difficulty and weights', async () => {
  const file = await tmpJsonl([record('P-MIN'), record('P-CON')]);
  const d = await loadDataset(file);
  assert.equal(d.tasks.length, 1);
  assert.equal(d.cases.length, 2);
  const c = d.cases[0]!;
  assert.equal(c.difficulty, 'easy');
  assert.equal(c.difficultySource, 'stored');
  assert.deepEqual(c.slots.map((s) => [s.id, s.weight]), [['s1', 0.75], ['s2', 0.75], ['s3', 1]]);
});

async function loadError(lines: unknown[]): Promise<DatasetError> {
  const file = await tmpJsonl(lines);
  try {
    await loadDataset(file);
  } catch (e) {
    assert.ok(e instanceof DatasetError, String(e));
    return e;
  }
  assert.fail('expected a DatasetError');
}

test('malformed records name the file, line, record and field', async () => {
  const bad = record('P-INT');
  (bad.oracle_slots as Record<string, unknown>[])[1]!.c_tech = 5;
  const e = await loadError([record('P-MIN'), bad]);
  assert.match(e.message, /d\.jsonl:2/);
  assert.match(e.message, /record t1_P-INT/);
  assert.match(e.message, /field oracle_slots\[1\]\.c_tech/);
  assert.equal(e.line, 2);

  assert.match((await loadError([record('P-MIN'), '{not json'])).message, /d\.jsonl:2.*not valid JSON/);
  assert.match((await loadError([record('P-MIN', { persona: 'P-XYZ' })])).message, /field persona/);
  assert.match((await loadError([record('P-MIN'), record('P-MIN')])).message, /duplicate case id/);
  const drift = await loadError([record('P-MIN'), record('P-RAM', { ground_truth_instruction: 'Something else.' })]);
  assert.match(drift.message, /line 1/);
  assert.match((await loadError([record('P-MIN', { degradation: { omits: ['s9'] } })])).message, /unknown slot "s9"/);
});

test('the built-in dataset loads: every task has reference site, probes, a NEGATIVE slot and 4 personas', async () => {
  const d = await loadDataset('builtin');
  assert.ok(d.tasks.length >= 6);
  assert.equal(d.cases.length, d.tasks.length * 4);
  for (const t of d.tasks) {
    assert.ok(t.referenceSite, t.id);
    assert.ok(t.slots.length >= 6 && t.slots.length <= 10, `${t.id}: ${t.slots.length} slots`);
    assert.ok(t.slots.some((s) => s.assertionType === 'NEGATIVE'), t.id);
    assert.ok(t.slots.every((s) => s.probe), t.id);
    assert.equal(Object.keys(t.personas).length, 4);
  }
  const categories = new Set(d.tasks.map((t) => t.category));
  assert.equal(categories.size, 3);
  assert.equal(new Set(d.cases.map((c) => c.difficulty)).size, 3, 'computed difficulties use all three clusters');
});
