import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The sharding example in docs/sharding-ci-allure.md must work as written on one machine (test/report-shard.test.ts runs the
 * mechanism): each shard writes its own blob file, in the folder merge-reports then reads.
 */
test('docs sharding example: one blob file per shard, all in the folder merge-reports reads', async () => {
  const page = await fs.readFile(path.join(ROOT, 'docs/sharding-ci-allure.md'), 'utf8');
  const block = /# Sharding[\s\S]*?```sh\n([\s\S]*?)```/.exec(page)?.[1];
  assert.ok(block, 'docs/sharding-ci-allure.md has a sharding example');
  const shards = block.split('\n').filter((l) => /playwright test .*--shard/.test(l));
  assert.ok(shards.length >= 2);
  const files = shards.map((l) => /PLAYWRIGHT_BLOB_OUTPUT_FILE=(\S+)/.exec(l)?.[1]);
  assert.ok(files.every(Boolean), `every shard names its own blob file: ${shards.join(' | ')}`);
  assert.equal(new Set(files).size, files.length, 'no two shards share a file');
  const merge = block.split('\n').find((l) => l.includes('merge-reports'));
  const folder = merge?.trim().split(/\s+/).at(-1)?.replace(/\/$/, '');
  assert.ok(files.every((f) => path.dirname(f!) === folder), `the shards write into ${folder}, which merge-reports reads`);
});
