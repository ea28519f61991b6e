import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import { test } from 'node:test';
import { benchMarkdown, BenchSchema, TARGETS, targetsMet } from '../bench/summary.js';

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

test("the targets table reads the 1-worker recording against today's targets, each row from one table", async () => {
  const bench = BenchSchema.parse(JSON.parse(await fs.readFile(new URL('../bench/bench.json', import.meta.url), 'utf8')));
  const one = bench.runs.find((r) => r.kind === 'record' && r.workers === 1)!;
  const md = benchMarkdown(bench);
  assert.match(md, new RegExp(`\\| slot judged < ${TARGETS.slotMs} ms \\(median, 1 worker\\) \\| ${one.slotMs.median} ms \\| ✗ \\|`));
  assert.match(md, new RegExp(`\\| new-worker wait < ${TARGETS.newWorkerMs} ms \\(median, 1 worker\\) \\| ${one.workerStarts!.newWorkerGapMs.median} ms \\|`));
  // A slot at 300 ms median meets the target; no 1-worker recording means not measured, not met.
  assert.equal(targetsMet({ ...bench, runs: [{ ...one, slotMs: { ...one.slotMs, median: 300 } }] }).slotMs, true);
  assert.equal(targetsMet({ ...bench, runs: bench.runs.filter((r) => r.workers !== 1) }).slotMs, null);
  assert.match(benchMarkdown({ ...bench, runs: bench.runs.filter((r) => r.workers !== 1) }), /\| slot judged < \d+ ms \(median, 1 worker\) \| – \| \|$/m);
});
