import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { difficultyPartition } from '../slots/difficulty.js';
import { memoisedPartition } from '../slots/difficulty-memo.js';

const VALUES = [3, 3.5, 4, 7, 7.5, 8, 12, 13, 14.5, 4.25];

test('difficulty memo: the same partition as computing it, then read back from its file', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-memo-'));
  const memo = memoisedPartition(dir);
  assert.deepEqual(memo(VALUES), difficultyPartition(VALUES));
  const [file] = await fs.readdir(dir);
  assert.ok(file?.startsWith('difficulty-'), 'written under the memo folder');
  // A planted answer for these values is what the next worker gets: proof that it reads instead of clustering.
  const planted = { labels: VALUES.map(() => 'hard'), centroids: [1, 2, 3], sse: 42 };
  await fs.writeFile(path.join(dir, file!), JSON.stringify({ values: VALUES, partition: planted }));
  assert.deepEqual(memo(VALUES), planted);
});

test('difficulty memo: a torn file, or one for other values, is computed again and rewritten', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-memo-'));
  const memo = memoisedPartition(dir);
  memo(VALUES);
  const [file] = await fs.readdir(dir);
  await fs.writeFile(path.join(dir, file!), '{"values": [3, 3.5');
  assert.deepEqual(memo(VALUES), difficultyPartition(VALUES));
  await fs.writeFile(path.join(dir, file!), JSON.stringify({ values: [1, 2, 3], partition: { labels: ['easy', 'middle', 'hard'], centroids: [1, 2, 3], sse: 0 } }));
  assert.deepEqual(memo(VALUES), difficultyPartition(VALUES));
  assert.deepEqual(JSON.parse(await fs.readFile(path.join(dir, file!), 'utf8')).values, VALUES, 'rewritten for these values');
});

test('difficulty memo: a folder it cannot write to costs only the clustering', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-memo-'));
  await fs.writeFile(path.join(dir, 'a-file'), '');
  const memo = memoisedPartition(path.join(dir, 'a-file', 'memo'));
  assert.deepEqual(memo(VALUES), difficultyPartition(VALUES));
});
