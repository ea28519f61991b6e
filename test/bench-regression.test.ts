import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import { test } from 'node:test';
import { calibrationWork, sampleCalibration } from '../bench/calibrate.js';
import { inFlight } from '../bench/in-flight.js';
import { latencyMarkdown, type LatencyBench } from '../bench/latency.js';
import { BASELINE_FILE, BaselineSchema, benchFigures, checkAgainstBaseline } from '../bench/regression.js';
import { BenchSchema, type Bench } from '../bench/summary.js';

const bench = async (): Promise<Bench> => BenchSchema.parse(JSON.parse(await fs.readFile(new URL('../bench/bench.json', import.meta.url), 'utf8')));

test('in flight: spans are counted exactly, an end and a start at one instant are not two at once', () => {
  const f = inFlight([{ start: 0, end: 50 }, { start: 50, end: 100 }, { start: 0, end: 100 }], 100, 2);
  assert.equal(f.max, 2);
  assert.equal(f.mean, 2);
  assert.deepEqual(f.timeline, [2, 2]);
  const tail = inFlight([{ start: 0, end: 25 }], 100, 4);
  assert.deepEqual(tail.timeline, [1, 0, 0, 0]);
  assert.equal(tail.mean, 0.3);
});

test('the latency table says whether 16 in flight met the target, with the ratio and the memory', () => {
  const run = (inFlightN: number, ratio: number, mb: number) => ({
    inFlight: inFlightN, cases: 2 * inFlightN, slots: 10, requests: { agent: 4, judge: 10 }, modelS: 28, idealS: 28 / inFlightN, wallS: (28 / inFlightN) * ratio, ratio,
    episodes: { mean: 1, max: inFlightN, timeline: [1] }, judgeCalls: { mean: 1, max: 2, timeline: [1] }, totalPeakRssMb: mb, workerPeakRssMb: 300, exitCode: 1, loadAtStart: 1,
  });
  const l: LatencyBench = { latencyMs: 2000, createdAt: 'now', dataset: 'all.jsonl', cpus: 2, memoryGb: 8, runs: [run(1, 1.1, 900), run(16, 2.5, 6000)] };
  const md = latencyMarkdown(l).join('\n');
  assert.match(md, /\| 16 \| 32 \| 14 \| 28 s \| 2 s \| 4 s \| 2\.50x \|/);
  assert.match(md, /At 16 in flight: 2\.50x the ideal .* not met/);
  assert.match(latencyMarkdown({ ...l, runs: [run(16, 1.2, 6000)] }).join('\n'), /: met\./);
  assert.match(latencyMarkdown({ ...l, runs: [run(16, 1.2, 9000)] }).join('\n'), /: not met\./, 'memory counts too');
});

test('calibration: a fixed piece of work, sampled while a run goes on', async () => {
  assert.ok(calibrationWork() > 0);
  const s = sampleCalibration(5);
  await new Promise((r) => setTimeout(r, 40));
  assert.ok(s.stop() > 0);
});

test('regression check: a figure several times slower than the baseline fails, noise within the tolerance passes, a figure no longer measured fails', async () => {
  const b = await bench();
  const withUnit: Bench = { ...b, runs: b.runs.map((r) => ({ ...r, calibrationMs: 10 })), som: { ...b.som, calibrationMs: 10 } };
  const baseline = BaselineSchema.parse({ about: 't', createdAt: 't', tolerance: { time: 3, memory: 1.5 }, figures: benchFigures(withUnit) });
  assert.ok(Object.keys(baseline.figures).some((k) => k.endsWith('slot judged (median)')));
  assert.ok(checkAgainstBaseline(withUnit, baseline).every((c) => c.ok && c.ratio === 1));
  // The same run on a machine twice as loaded: its timings and its unit both double, the ratios do not move.
  const loaded: Bench = { ...withUnit, runs: withUnit.runs.map((r) => ({ ...r, calibrationMs: 20, wallS: r.wallS * 2, slotMs: { ...r.slotMs, median: r.slotMs.median! * 2 } })) };
  assert.ok(checkAgainstBaseline(loaded, baseline).filter((c) => /wall|slot/.test(c.name)).every((c) => c.ok));
  const slower: Bench = { ...withUnit, runs: withUnit.runs.map((r) => ({ ...r, slotMs: { ...r.slotMs, median: r.slotMs.median! * 4 } })) };
  const failed = checkAgainstBaseline(slower, baseline).filter((c) => !c.ok).map((c) => c.name);
  assert.ok(failed.length > 0 && failed.every((n) => n.endsWith('slot judged (median)')), failed.join(', '));
  const fatter: Bench = { ...withUnit, runs: withUnit.runs.map((r) => ({ ...r, workerPeakRssMb: r.workerPeakRssMb! * 2 })) };
  assert.ok(checkAgainstBaseline(fatter, baseline).some((c) => !c.ok && c.name.endsWith('worker peak RSS')));
  const without: Bench = { ...withUnit, runs: withUnit.runs.map((r) => ({ ...r, calibrationMs: undefined })) };
  assert.ok(checkAgainstBaseline(without, baseline).some((c) => !c.ok && c.now === null), 'an uncalibrated run is not silently passed');
});

test('the committed baseline reads, and holds the quick bench\'s record and replay figures', async () => {
  const baseline = BaselineSchema.parse(JSON.parse(await fs.readFile(BASELINE_FILE, 'utf8')));
  for (const name of ['record-1 slot judged (median)', 'replay-1 wall', 'SoM labelling (median)']) assert.ok(baseline.figures[name], name);
});
