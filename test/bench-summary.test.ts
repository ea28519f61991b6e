import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import { test } from 'node:test';
import { benchMarkdown, BenchSchema } from '../bench/summary.js';

// The committed bench is a real one: read it back, then say where a replay's recording came from.
test('bench.md names the recording a replay read when it was made at another worker count', async () => {
  const bench = BenchSchema.parse(JSON.parse(await fs.readFile(new URL('../bench/bench.json', import.meta.url), 'utf8')));
  const replay = bench.runs.find((r) => r.kind === 'replay');
  assert.ok(replay);
  assert.doesNotMatch(benchMarkdown(bench), /recording\)/);
  const md = benchMarkdown({ ...bench, runs: bench.runs.map((r) => (r === replay ? { ...r, recordedWith: 1 } : r)) });
  assert.match(md, new RegExp(`\\| replay \\(of the 1-worker recording\\) \\| ${replay.workers} \\|`));
  const same = benchMarkdown({ ...bench, runs: bench.runs.map((r) => (r === replay ? { ...r, recordedWith: r.workers } : r)) });
  assert.doesNotMatch(same, /recording\)/);
});
