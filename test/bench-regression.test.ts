import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import { test } from 'node:test';
import { calibrationWork, sampleCalibration } from '../bench/calibrate.js';
import { inFlight } from '../bench/in-flight.js';
import { processCpuFromStat } from '../bench/cpu.js';
import { latencyMarkdown, type LatencyBench } from '../bench/latency.js';
import { BASELINE_FILE, BaselineSchema, benchFigures, checkAgainstBaseline, checkVerdicts, describeVerdicts } from '../bench/regression.js';
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

test('the latency table gives the run\'s CPU and its floor on the cores, and names what bound the run; an older row without CPU shows none', () => {
  const run = (cpuS: number | undefined) => ({
    inFlight: 16, cases: 32, slots: 10, requests: { agent: 4, judge: 10 }, modelS: 64, idealS: 4, wallS: 12, ratio: 3,
    episodes: { mean: 1, max: 16, timeline: [1] }, judgeCalls: { mean: 1, max: 2, timeline: [1] }, totalPeakRssMb: 900, workerPeakRssMb: 300, exitCode: 1, loadAtStart: 1,
    ...(cpuS === undefined ? {} : { cpuS, workerCpuS: cpuS / 2, workerProcesses: 7 }),
  });
  const l = (cpuS: number | undefined): LatencyBench => ({ latencyMs: 2000, createdAt: 'now', dataset: 'all.jsonl', cpus: 2, memoryGb: 8, runs: [run(cpuS)] });
  const bound = latencyMarkdown(l(20)).join('\n');
  assert.match(bound, /\| 3\.00x \| 20 s \(10 s\) \| 10 s \| 7 \|/);
  assert.match(bound, /used 20 CPU-s, 10 s on 2 cores; the wall is 1\.20x the larger of ideal and CPU floor, so the bound is the cores \(CPU floor 10 s > ideal 4 s\)/);
  assert.match(latencyMarkdown(l(6)).join('\n'), /the bound is the model \(ideal 4 s >= CPU floor 3 s\)/);
  const old = latencyMarkdown(l(undefined)).join('\n');
  assert.match(old, /\| 3\.00x \| – \| – \| – \|/);
  assert.doesNotMatch(old, /CPU-s/, 'no CPU figure is made up for a row that did not measure it');
});

test('a process\'s CPU time and start from its /proc stat line, whatever its command name holds', () => {
  // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime prio nice threads itreal starttime ...
  const line = '4242 (node ) (x) y) S 1 4242 4242 0 -1 4194304 10 0 0 0 250 50 900 900 20 0 11 0 777 1000 200';
  assert.deepEqual(processCpuFromStat(line), { cpuS: 3, started: 777, parent: 1 }, 'user + system of the process itself, not of its children');
  assert.throws(() => processCpuFromStat('garbage'), /not a \/proc stat line/);
});

test('verdicts: the quick bench\'s recording is held to the baseline slot by slot; a changed, missing or new slot fails, a baseline without verdicts checks none', async () => {
  const b = await bench();
  const at = (verdicts: Record<string, string>): Bench => ({ ...b, runs: [{ ...b.runs[0]!, kind: 'record', workers: 1, verdicts }, ...b.runs.slice(1)] });
  const base = BaselineSchema.parse({ about: 't', createdAt: 't', tolerance: { time: 3, memory: 1.5 }, figures: {}, verdicts: { 'c1/s1': 'pass', 'c1/s2': 'fail' } });
  assert.deepEqual(checkVerdicts(at({ 'c1/s1': 'pass', 'c1/s2': 'fail' }), base), []);
  const changed = checkVerdicts(at({ 'c1/s1': 'fail', 'c1/s2': 'fail' }), base);
  assert.deepEqual(changed, [{ slot: 'c1/s1', baseline: 'pass', now: 'fail' }]);
  assert.equal(describeVerdicts(changed), 'c1/s1: pass -> fail');
  assert.equal(describeVerdicts(checkVerdicts(at({ 'c1/s1': 'pass' }), base)), 'c1/s2: fail -> not judged');
  assert.equal(describeVerdicts(checkVerdicts(at({ 'c1/s1': 'pass', 'c1/s2': 'fail', 'c2/s1': 'pass' }), base)), 'c2/s1: not in the baseline -> pass');
  // A bench whose recording kept no verdicts (a larger run) fails every slot the baseline holds, rather than passing.
  assert.equal(checkVerdicts({ ...b, runs: [] }, base).length, 2);
  assert.deepEqual(checkVerdicts(at({}), { ...base, verdicts: undefined }), []);
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
