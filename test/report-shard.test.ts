import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { playwright } from './bench-support.js';

/**
 * What may differ between a run and the merge of its shards. Everything else in report.json must be equal,
 * including fields added after this test was written: the comparison walks the whole document.
 * The shards reuse the unsharded run's episodes, so the cache counters and each case's cached flag differ.
 */
const VOLATILE = ['meta.startedAt', 'meta.durationMs', 'episodes.ranThisRun', 'episodes.fromCache', 'cases.*.episodeCached'];

/** Paths (`a.b.0.c`) at which two JSON values differ; an absent key differs from any value. */
export function jsonDiff(a: unknown, b: unknown, at: string[] = []): string[] {
  if (a === b) return [];
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const ra = a as Record<string, unknown>;
    const rb = b as Record<string, unknown>;
    const keys = new Set([...Object.keys(ra), ...Object.keys(rb)]);
    return [...keys].flatMap((k) => (k in ra && k in rb ? jsonDiff(ra[k], rb[k], [...at, k]) : [[...at, k].join('.')]));
  }
  return [at.join('.')];
}

function volatile(p: string): boolean {
  const parts = p.split('.');
  return VOLATILE.some((v) => {
    const pattern = v.split('.');
    return pattern.length === parts.length && pattern.every((x, i) => x === '*' || x === parts[i]);
  });
}

interface Report {
  meta: { startedAt: string; durationMs: number };
  overall: { cases: number; tcr: number | null; erroredSlots: number };
  episodes: { total: number; ranThisRun: number; fromCache: number };
  cases: { id: string; slots: unknown[] }[];
}
const read = async (dir: string) => JSON.parse(await fs.readFile(path.join(dir, 'report.json'), 'utf8')) as Report;

let tmp: string;
before(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-shard-'));
});
after(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

test('the comparison sees a changed, an added and a removed field, and forgives only the volatile ones', () => {
  const base = { meta: { startedAt: 'x', n: 1 }, cases: [{ id: 'a', episodeCached: false, tcr: 1 }] };
  assert.deepEqual(jsonDiff(base, structuredClone(base)), []);
  assert.deepEqual(jsonDiff(base, { ...base, meta: { startedAt: 'y', n: 2 } }).filter((p) => !volatile(p)), ['meta.n']);
  assert.deepEqual(jsonDiff(base, { ...base, cases: [{ id: 'a', episodeCached: true }] }), ['cases.0.episodeCached', 'cases.0.tcr']);
  assert.deepEqual(jsonDiff(base, { ...base, extra: 1 }), ['extra']);
  assert.deepEqual(jsonDiff({ xs: [1, 2] }, { xs: [1] }), ['xs.1']);
});

test('merge-reports of two blob shards gives the same report.json as the unsharded run; no case is split between shards', async () => {
  const runs = path.join(tmp, 'runs');
  // Four of the original built-in tasks (a tag filter): enough cases that a shard boundary falls inside one unless
  // the config keeps cases whole; all 24, the Vite task's npm install included, would triple the three runs.
  const TASKS = ['bakery-menu', 'expense-tracker', 'ocean-quiz', 'tip-calculator'];
  const common = ['--project=p-min', '--grep', `@task-(${TASKS.join('|')})(?=\\s|$)`];
  const unsharded = await playwright(['test', ...common, '--reporter=dot,./reporters/iwb-reporter.ts', '--output', path.join(tmp, 'out-0')], {
    IWB_RUN_DIR: runs,
    IWB_REPORT_DIR: path.join(tmp, 'unsharded'),
  });
  assert.equal(unsharded.status, 0, unsharded.output.slice(-3000));

  const blobs = path.join(tmp, 'blobs');
  const shards: Report[] = [];
  const seconds = [unsharded.seconds];
  for (const i of [1, 2]) {
    // One file per shard in one folder: with only PLAYWRIGHT_BLOB_OUTPUT_DIR each shard would empty the folder first.
    // The iwb reporter beside blob tells which cases the shard ran.
    const shard = await playwright(['test', ...common, `--shard=${i}/2`, '--reporter=blob,./reporters/iwb-reporter.ts', '--output', path.join(tmp, `out-${i}`)], {
      IWB_RUN_DIR: runs,
      IWB_REPORT_DIR: path.join(tmp, `shard-${i}`),
      PLAYWRIGHT_BLOB_OUTPUT_FILE: path.join(blobs, `report-${i}.zip`),
    });
    assert.equal(shard.status, 0, shard.output.slice(-3000));
    shards.push(await read(path.join(tmp, `shard-${i}`)));
    seconds.push(shard.seconds);
  }
  assert.deepEqual((await fs.readdir(blobs)).sort(), ['report-1.zip', 'report-2.zip']);

  // No --config: the iwb reporter takes its output folder from IWB_REPORT_DIR, as in a run.
  const merged = await playwright(['merge-reports', '--reporter=./reporters/iwb-reporter.ts', blobs], { IWB_REPORT_DIR: path.join(tmp, 'merged') });
  assert.equal(merged.status, 0, merged.output.slice(-3000));
  seconds.push(merged.seconds);

  const whole = await read(path.join(tmp, 'unsharded'));
  const union = await read(path.join(tmp, 'merged'));
  assert.equal(whole.overall.cases, TASKS.length, 'one p-min case per task selected');
  assert.equal(whole.overall.erroredSlots, 0);
  assert.equal(whole.episodes.ranThisRun, TASKS.length);
  assert.equal(union.episodes.fromCache, TASKS.length, 'the shards reused the unsharded run episodes');
  const differing = jsonDiff(whole, union);
  assert.deepEqual(differing.filter((p) => !volatile(p)), [], 'merged and unsharded reports differ beyond run-specific fields');
  assert.ok(differing.includes('meta.startedAt'), 'two runs, two start times: the reports compared are really two');
  // The merged report times the shards (first start to last end), not the merge: no "(0 s)".
  const longest = Math.max(...shards.map((s) => s.meta.durationMs));
  assert.ok(union.meta.durationMs >= longest, `merged duration ${union.meta.durationMs} ms covers the longest shard (${longest} ms)`);
  assert.equal(union.meta.startedAt, shards.map((s) => s.meta.startedAt).sort()[0], 'the merged run starts when its first shard did');

  const ids = shards.map((s) => s.cases.map((c) => c.id));
  assert.ok(ids.every((x) => x.length > 0), `each shard ran cases: ${JSON.stringify(ids)}`);
  assert.deepEqual(ids[0]!.filter((id) => ids[1]!.includes(id)), [], 'the shards ran disjoint cases');
  assert.deepEqual(ids.flat().sort(), whole.cases.map((c) => c.id).sort());
  for (const c of shards.flatMap((s) => s.cases)) {
    assert.equal(c.slots.length, whole.cases.find((w) => w.id === c.id)!.slots.length, `${c.id} ran whole in one shard`);
  }
  console.log(`differing run-specific fields: ${[...new Set(differing.map((p) => p.replace(/\.\d+\./, '.*.')))].join(', ')}`);
  console.log(`unsharded ${seconds[0]!.toFixed(1)} s, shard 1 ${seconds[1]!.toFixed(1)} s, shard 2 ${seconds[2]!.toFixed(1)} s, merge ${seconds[3]!.toFixed(1)} s`);
});
