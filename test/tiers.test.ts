import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { BROWSER_FILES, E2E_FILES, filesOf, TEST_DIR, TIERS } from './tiers.js';

test('every file a tier names exists, no file is in two tiers, and every test file runs in exactly one tier', () => {
  for (const name of [...BROWSER_FILES, ...E2E_FILES]) assert.ok(existsSync(path.join(TEST_DIR, `${name}.test.ts`)), `test/tiers.ts names ${name}, which has no test file`);
  assert.deepEqual(BROWSER_FILES.filter((n) => E2E_FILES.includes(n)), []);
  const all = readdirSync(TEST_DIR).filter((f) => f.endsWith('.test.ts')).map((f) => path.join('test', f)).sort();
  assert.deepEqual(TIERS.flatMap(filesOf).sort(), all);
});
