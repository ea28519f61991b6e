import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { z } from 'zod';
import { readCacheFile } from '../protocol/cache-file.js';
import { IntentAnnotationSchema } from '../protocol/annotations.js';

const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-cache-files-'));

test('cache files: missing is not cached, a torn file is corrupt with its path, a wrong field is named', async () => {
  const Schema = z.object({ bug: z.boolean(), n: z.number() });
  assert.deepEqual(await readCacheFile(path.join(dir, 'none.json'), Schema), { kind: 'missing' });
  const torn = path.join(dir, 'torn.json');
  await fs.writeFile(torn, '{"bug": tr');
  const t = await readCacheFile(torn, Schema);
  assert.equal(t.kind, 'corrupt');
  assert.match(t.kind === 'corrupt' ? t.error : '', new RegExp(`^${torn.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: not valid JSON`));
  const wrong = path.join(dir, 'wrong.json');
  await fs.writeFile(wrong, JSON.stringify({ bug: 'yes', n: 1 }));
  const w = await readCacheFile(wrong, Schema);
  assert.match(w.kind === 'corrupt' ? w.error : '', /wrong\.json: field bug:/);
  const good = path.join(dir, 'good.json');
  await fs.writeFile(good, JSON.stringify({ bug: false, n: 2 }));
  assert.deepEqual(await readCacheFile(good, Schema), { kind: 'ok', data: { bug: false, n: 2 } });
});

test('cache files: an intent.json with a score out of range is not trusted', async () => {
  const file = path.join(dir, 'intent.json');
  await fs.writeFile(file, JSON.stringify({ ias: 9, hitSlots: [], model: 'm', tokens: { prompt: 0, completion: 0 } }));
  const r = await readCacheFile(file, IntentAnnotationSchema);
  assert.equal(r.kind, 'corrupt');
});
