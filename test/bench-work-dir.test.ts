import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import type { RunFigures } from '../bench/summary.js';
import { keepPort, openWorkDir } from '../bench/work-dir.js';

const dist = { n: 1, median: 1, p95: 1 };
const figures = (kind: RunFigures['kind'], workers: number): RunFigures => ({
  workers,
  kind,
  wallS: 1,
  exitCode: 1,
  slotsJudged: 1,
  slotMs: dist,
  verifyMs: dist,
  episodeMs: dist,
  workerPeakRssMb: null,
  browserPeakRssMb: null,
  modelRequests: kind === 'replay' ? 0 : 3,
  statuses: { passed: 1 },
  tcr: 1,
});

test('bench work folder: a kept folder keeps its port and gathers the runs of every invocation', async () => {
  const dir = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-work-test-')), 'w');
  const first = await openWorkDir(dir);
  assert.equal(first.port, undefined);
  await keepPort(first, 41234);
  await first.saveFigures(figures('replay', 2));
  await first.saveFigures(figures('record', 2));
  await first.close();

  // A later invocation: same port, and the earlier runs beside its own, recordings first.
  const second = await openWorkDir(dir);
  assert.equal(second.port, 41234);
  await keepPort(second, 50000);
  assert.equal((await openWorkDir(dir)).port, 41234, 'a kept port is never replaced: the recordings were keyed with it');
  await second.saveFigures(figures('record', 1));
  assert.deepEqual(
    (await second.allFigures()).map((r) => `${r.kind}-${r.workers}`),
    ['record-1', 'record-2', 'replay-2'],
  );
  assert.equal(second.recordingDir(2), path.join(dir, 'calls-2'));
  await second.close();
  assert.ok(await fs.stat(dir), 'a named folder is kept');

  // A recording starts empty, calls included; a replay keeps the calls it replays.
  const record = await second.freshRun('record', 2);
  for (const d of [record.runDir, record.calls]) await fs.mkdir(d, { recursive: true });
  await fs.writeFile(path.join(record.calls, 'entry.json'), '{}');
  const replay = await second.freshRun('replay', 2);
  assert.equal(replay.calls, record.calls);
  assert.deepEqual(await fs.readdir(record.calls), ['entry.json']);
  // The only recording is replayed at any worker count; with two, a replay must name one of them.
  assert.deepEqual(await second.recordingToReplay(1), { dir: record.calls, workers: 2 });
  await fs.mkdir(second.recordingDir(1));
  assert.deepEqual(await second.recordingToReplay(1), { dir: second.recordingDir(1), workers: 1 });
  await assert.rejects(second.recordingToReplay(3), /recordings at 1 and 2 workers, none at 3/);
  await fs.rm(second.recordingDir(1), { recursive: true });
  await second.saveFigures({ ...figures('replay', 1), recordedWith: 2 });
  await second.freshRun('record', 2);
  await assert.rejects(fs.stat(record.calls), 'a new recording does not inherit the last one\'s calls');
  assert.deepEqual(
    (await second.allFigures()).map((r) => `${r.kind}-${r.workers}`),
    ['record-1', 'record-2'],
    'the replays of the replaced recording are dropped, whatever their worker count',
  );

  // One dataset slice per folder.
  await second.checkDataset({ file: 'all.jsonl', cases: 4, slots: 20 });
  await second.checkDataset({ file: 'all.jsonl', cases: 4, slots: 20 });
  await assert.rejects(second.checkDataset({ file: 'all.jsonl', cases: 404, slots: 2992 }), /holds runs of 4 cases of all\.jsonl, not 404/);

  // A damaged figures file is named, not skipped.
  await fs.writeFile(path.join(dir, 'figures-record-3.json'), JSON.stringify({ workers: 3 }));
  await assert.rejects(second.allFigures(), /figures-record-3\.json is not a run's figures: kind/);
  await fs.rm(path.dirname(dir), { recursive: true, force: true });
});

test('bench work folder: a temporary folder is removed at the end and has no fixed port', async () => {
  const work = await openWorkDir(undefined);
  assert.equal(work.port, undefined);
  await keepPort(work, 41234);
  assert.equal((await fs.readdir(work.dir)).length, 1);
  await work.close();
  await assert.rejects(fs.stat(work.dir));
});
