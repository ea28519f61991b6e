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

test('bench.md says how many cases and slots were in flight while the runs judged, and where a slot went', async () => {
  const bench = BenchSchema.parse(JSON.parse(await fs.readFile(new URL('../bench/bench.json', import.meta.url), 'utf8')));
  // Runs from before the settings were kept say nothing about them.
  assert.doesNotMatch(benchMarkdown(bench), /^In flight/m);
  const one = { casesAhead: 0, slotsInFlight: 1 };
  const serial = benchMarkdown({ ...bench, runs: bench.runs.map((r) => ({ ...r, inFlight: one })) });
  assert.match(serial, /^In flight \(IWB_CASES_AHEAD, IWB_JUDGE_SLOTS_IN_FLIGHT\): 0 cases run ahead, 1 slot judged at once, so a slot's time is its own cost/m);
  const mixed = benchMarkdown({ ...bench, runs: bench.runs.map((r, i) => ({ ...r, inFlight: i === 0 ? one : { casesAhead: 4, slotsInFlight: 4 } })) });
  assert.match(mixed, /^In flight .*: 0 cases run ahead, 1 slot judged at once; 4 cases run ahead, 4 slots judged at once\.$/m);
  const d = { n: 1, median: 100, p95: 100 };
  const withPhases = benchMarkdown({ ...bench, runs: [{ ...bench.runs[0]!, slotPhases: { slots: 1, open: d, look: d, model: d, act: d, rest: d, looks: 2, acts: 1 } }] });
  assert.match(withPhases, /^Where a judged slot's time goes \(record, 1 worker; median ms per slot over 1 slots\)/m);
});
