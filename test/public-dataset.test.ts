import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkDataset } from '../slots/check.js';
import { loadDataset } from '../slots/load.js';
import { releaseFile } from '../config/public-data.js';

const { path: ALL, skip: noData } = releaseFile('interactweb-bench', 'all.jsonl', process.env);

test('public all.jsonl: 404 cases load, every stored weight is the computed one', { skip: noData }, async () => {
  const d = await loadDataset(ALL);
  const r = checkDataset(d);
  assert.equal(r.tasks, 101);
  assert.equal(r.cases, 404);
  assert.equal(r.slots, 748);
  assert.equal(r.positiveSlots, 642);
  assert.equal(r.negativeSlots, 106);
  assert.equal(r.weightsStored, 748);
  assert.deepEqual(r.weightMismatches, []);
  // The restarted K-means must reach the exact optimum; the stored labels are a worse partition.
  assert.ok(Math.abs(r.sse.computed - r.sse.optimum) < 1e-6);
  assert.ok(r.sse.stored! >= r.sse.optimum);
  assert.equal(r.difficultyAgreement.of, 101);
  assert.deepEqual(r.difficultyCounts.stored, { easy: 21, middle: 54, hard: 26 });
  // Stored labels are authoritative for cases.
  assert.ok(d.cases.every((c) => c.difficultySource === 'stored'));
});
