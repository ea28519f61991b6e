import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { BASELINE_FILE, BaselineSchema, checkAgainstBaseline, checkVerdicts, describeChecks, describeVerdicts } from '../bench/regression.js';
import { BenchSchema } from '../bench/summary.js';
import { runCommand } from './bench-support.js';
import { releaseFile } from '../config/public-data.js';

// Timings are asserted only as ratios to a calibration unit measured in the same process (bench/regression.ts),
// against the committed baseline with a wide tolerance: this machine is shared and noisy.
// The recording and its replay run as two invocations sharing a kept --work folder, as a full-size bench does.
test('npm run bench -- --quick writes a well-formed bench.json and bench.md, gathered across invocations', { skip: releaseFile('interactweb-bench', 'all.jsonl', process.env).skip }, async () => {
  const out = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-bench-out-'));
  const work = path.join(out, 'work');
  try {
    const bench1 = (...args: string[]) => runCommand('node', ['--import', 'tsx', 'bench/run.ts', '--quick', '--out', out, '--work', work, ...args], {}, 600_000);
    const recording = await bench1('--no-replay');
    assert.equal(recording.status, 0, recording.output.slice(-3000));
    const run = await bench1('--replay-only');
    assert.equal(run.status, 0, run.output.slice(-3000));
    const bench = BenchSchema.parse(JSON.parse(await fs.readFile(path.join(out, 'bench.json'), 'utf8')));
    assert.equal(bench.quick, true);
    assert.equal(bench.dataset.cases, 2);
    assert.deepEqual(bench.runs.map((r) => [r.kind, r.workers]), [['record', 1], ['replay', 1]]);
    const [record, replay] = bench.runs;
    // The slice is two personas of one task: each case's site differs, as a real agent's would, so no slot
    // is answered from another persona's verdict (keyed by site and slot).
    assert.equal(record!.verdictCacheHits, 0);
    assert.equal(record!.slotsJudged, bench.dataset.slots, 'every slot of the slice was judged');
    assert.ok(record!.verifyMs.n >= bench.dataset.cases, 'each episode verified once');
    assert.equal(record!.episodeMs.n, bench.dataset.cases);
    assert.ok(record!.modelRequests > 0);
    assert.equal(replay!.slotsJudged, bench.dataset.slots);
    assert.equal(replay!.verdictCacheHits, 0, 'a replay judges again from the recorded calls');
    assert.equal(replay!.modelRequests, 0, 'a replay in a later invocation finds every call: same port, same keys');
    assert.deepEqual(replay!.statuses, record!.statuses);
    // The scripted judge fails some slots, and Playwright replaces the worker after each.
    assert.ok((record!.statuses.fail ?? 0) > 0);
    assert.ok(record!.workerStarts && record!.workerStarts.workers > 2, JSON.stringify(record!.workerStarts));
    assert.ok(record!.workerStarts.newWorkerGapMs.n > 0);
    assert.ok(bench.som.labelled >= 400, `most of the 500 elements labelled: ${bench.som.labelled}`);
    // One slot at a time, so a slot's time is its own; and where it went, phase by phase, for every slot judged.
    assert.deepEqual(record!.inFlight, { casesAhead: 0, slotsInFlight: 1 });
    assert.equal(record!.slotPhases?.slots, bench.dataset.slots, JSON.stringify(record!.slotPhases));
    assert.ok(record!.slotPhases!.open.median! > 0 && record!.slotPhases!.looks! >= 1, JSON.stringify(record!.slotPhases));
    const md = await fs.readFile(path.join(out, 'bench.md'), 'utf8');
    assert.match(md, /\| record \| 1 \|/);
    assert.match(md, /SoM labelling of a 500-element page/);
    assert.match(md, /Worker starts \(record, 1 worker\): \d+ worker processes/);
    assert.match(md, /Where a judged slot's time goes \(record, 1 worker; median ms per slot over \d+ slots\): opening the site \d+/);
    assert.ok(bench.runs.every((r) => r.calibrationMs), 'each run sampled its calibration unit');
    const baseline = BaselineSchema.parse(JSON.parse(await fs.readFile(BASELINE_FILE, 'utf8')));
    assert.deepEqual(Object.keys(record!.verdicts ?? {}).length, bench.dataset.slots, 'the slice keeps each slot\'s verdict');
    // A faster harness must judge the same: every slot's verdict as the baseline's recording gave it.
    assert.ok(baseline.verdicts, 'the baseline holds the quick bench\'s verdicts');
    const verdicts = checkVerdicts(bench, baseline);
    assert.deepEqual(verdicts, [], `a verdict changed (bench/baseline.json):\n${describeVerdicts(verdicts)}`);
    const checks = checkAgainstBaseline(bench, baseline);
    process.stderr.write(`[bench] against the baseline:\n${describeChecks(checks)}\n`);
    assert.ok(checks.every((c) => c.ok), `a speed figure regressed past the baseline's tolerance (bench/baseline.json):\n${describeChecks(checks)}`);
  } finally {
    await fs.rm(out, { recursive: true, force: true });
  }
});
