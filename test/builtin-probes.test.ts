import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from '@playwright/test';
import { serveStatic, type ServedSite } from '../site/site-server.js';
import { CHROMIUM_ARGS, readSettings } from '../config/settings.js';
import { runCalibration, type CalibrationSite } from '../judge/calibrate.js';
import { createProbeJudge } from '../judge/probe-judge.js';
import { runProbe } from '../judge/probe-runner.js';
import { loadBuiltinTasks } from '../slots/builtin-loader.js';
import { buildDataset } from '../slots/load.js';
import { BuiltinTaskFileSchema, type BuiltinTaskFile } from '../slots/builtin-schema.js';
import { slotWeights } from '../slots/weights.js';
import { CLI_TASK, FULL } from './calibration-part.js';

/**
 * Every built-in probe must pass on its reference site and fail on an empty page (a probe that passes on
 * nothing would reward an agent for doing nothing), and every NEGATIVE probe must notice injected extras.
 */
const TASKS_DIR = fileURLToPath(new URL('../tasks/', import.meta.url));
const ids = (await fs.readdir(TASKS_DIR, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();
const tasks: BuiltinTaskFile[] = [];
for (const id of ids) {
  tasks.push(BuiltinTaskFileSchema.parse(JSON.parse(await fs.readFile(path.join(TASKS_DIR, id, 'task.json'), 'utf8'))));
}

// Probes are CPU-bound in the browser; three at a time keeps two cores busy without thrashing.
const CONCURRENCY = 3;

let browser: Browser;
const sites = new Map<string, ServedSite>();

before(async () => {
  browser = await chromium.launch({ executablePath: readSettings(process.env).chromium, args: CHROMIUM_ARGS });
  for (const t of tasks) sites.set(t.id, await serveStatic(path.join(TASKS_DIR, t.id, 'site')));
});
after(async () => {
  await browser?.close();
  for (const site of sites.values()) await site.close();
});

async function probeOnce(url: string, probe: BuiltinTaskFile['slots'][number]['probe'], timeoutMs: number, inject?: string) {
  const context = await browser.newContext();
  if (inject) {
    await context.route(
      (u) => u.pathname === '/' || u.pathname.endsWith('.html'),
      async (route) => {
        const res = await route.fetch();
        await route.fulfill({ response: res, body: (await res.text()).replace('</body>', `${inject}</body>`) });
      },
    );
  }
  try {
    return await runProbe(await context.newPage(), url, probe, { timeoutMs });
  } finally {
    await context.close();
  }
}

test('task files are consistent', () => {
  assert.ok(tasks.length >= 24, `expected at least 24 built-in tasks, found ${tasks.length}`);
  const categories = new Set(tasks.map((t) => t.category));
  assert.equal(categories.size, 3, `all three primary categories: ${[...categories].join(', ')}`);
  assert.deepEqual([...new Set(tasks.flatMap((t) => t.slots.map((s) => s.c_tech)))].sort(), [1, 2, 3], 'c_tech 1, 2 and 3 all used');
  assert.ok(tasks.filter((t) => t.slots.filter((s) => s.assertion_type === 'NEGATIVE').length > 1).length >= 6, 'some tasks have a NEGATIVE slot beyond the generic one');
  for (const t of tasks) {
    assert.equal(t.id, ids[tasks.indexOf(t)], `${t.id}: folder name`);
    const slotIds = new Set(t.slots.map((s) => s.id));
    assert.equal(slotIds.size, t.slots.length, `${t.id}: duplicate slot ids`);
    assert.ok(t.slots.some((s) => s.assertion_type === 'NEGATIVE' && s.target_component === 'Unrequested_Element_Feature'), `${t.id}: needs a NEGATIVE slot`);
    for (const [persona, entry] of Object.entries(t.personas)) {
      for (const id of [...entry.omits, ...entry.blurs, ...entry.contradicts]) assert.ok(slotIds.has(id), `${t.id} ${persona}: unknown slot ${id}`);
    }
  }
});

/**
 * Reference and empty sites go through the calibration runner, which reuses a few pages (storage cleared
 * between slots) instead of a fresh context per probe: with 24 tasks the fresh contexts cost most of the time.
 */
async function judgeAll(variant: string, build: (t: BuiltinTaskFile, dir: string) => Promise<void>, expected: 'pass' | 'fail', timeoutMs: number, of = tasks) {
  const loaded = await loadBuiltinTasks();
  const cases = buildDataset('builtin', 'builtin', loaded).cases;
  const sitesToJudge: CalibrationSite[] = of.map((t) => ({
    taskId: t.id,
    variant,
    build: (dir) => build(t, dir),
    expected: Object.fromEntries(t.slots.map((s) => [s.id, expected])),
  }));
  return runCalibration({ browser, cases, sites: sitesToJudge, judges: [{ key: 'probe', judge: createProbeJudge({ timeoutMs }), slots: 'probed' }], concurrency: CONCURRENCY });
}

/** Tasks whose reference sites the calibration probes in full (test/calibration-part.ts, judge-calibration's CLI task): not probed twice. */
const CALIBRATED = new Set([...FULL, CLI_TASK]);

test('every probe passes on its reference site', async () => {
  const rest = tasks.filter((t) => !CALIBRATED.has(t.id));
  assert.equal(rest.length, tasks.length - CALIBRATED.size, 'every task calibrated in full exists');
  // Generous: a passing probe returns as soon as it holds, and a loaded CI machine should not fail it.
  const rows = await judgeAll('reference', (t, dir) => fs.cp(path.join(TASKS_DIR, t.id, 'site'), dir, { recursive: true }), 'pass', 5000, rest);
  assert.equal(rows.length, rest.reduce((n, t) => n + t.slots.length, 0));
  const wrong = rows.filter((r) => r.got.probe?.status !== 'pass').map((r) => `${r.taskId} ${r.slotId}: ${r.got.probe?.evidence}`);
  assert.deepEqual(wrong, []);
});

test('every probe fails on an empty page', async () => {
  // A short timeout: on an empty page nothing will ever appear, so waiting longer only costs time.
  const blank = async (_t: BuiltinTaskFile, dir: string) => {
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, 'index.html'), '<html><body></body></html>');
  };
  const rows = await judgeAll('empty', blank, 'fail', 250);
  const passed = rows.filter((r) => r.got.probe?.status !== 'fail').map((r) => `${r.taskId} ${r.slotId}: ${r.got.probe?.status} ${r.got.probe?.evidence}`);
  assert.deepEqual(passed, [], 'probes that pass on an empty page (or errored)');
});

// Everything an over-eager agent tends to add; each NEGATIVE probe must notice at least one of them.
const EXTRAS = `<form><label>Search <input type="search"></label><label>Email <input type="email"></label>
<label>Password <input type="password"></label><select aria-label="Currency"><option>USD</option></select>
<button type="button">Log in</button><button type="button">Register</button><button type="button">Add to cart</button></form>
<a href="https://example.com/">Visit our partner</a><canvas width="10" height="10"></canvas>`;

// The generic NEGATIVE slot of each task must notice these; a task's other NEGATIVE slots (no phone field,
// no Enterprise plan) test one specific extra each, and a broken variant of the task adds it (judge-calibration).
test('every generic NEGATIVE probe fails when unrequested extras are added to the reference site', { concurrency: CONCURRENCY }, async (tt) => {
  await Promise.all(
    tasks.flatMap((t) =>
      t.slots
        .filter((s) => s.assertion_type === 'NEGATIVE' && s.target_component === 'Unrequested_Element_Feature')
        .map((s) =>
          tt.test(`${t.id} ${s.id}`, async () => {
            const r = await probeOnce(sites.get(t.id)!.url, s.probe, 500, EXTRAS);
            assert.equal(r.passed, false, `${t.id} ${s.id} missed the injected extras: ${r.evidence}`);
            assert.ok((r.failedAt ?? 0) > 1, `${t.id} ${s.id} should fail on an absence check, not earlier: ${r.evidence}`);
          }),
        ),
    ),
  );
});

test('weight totals', (tt) => {
  for (const t of tasks) {
    const w = slotWeights(t.slots.map((s) => ({ targetComponent: s.target_component, cTech: s.c_tech })));
    tt.diagnostic(`${t.id} (${t.category}): ${t.slots.length} slots, total weight ${w.reduce((a, b) => a + b, 0).toFixed(3)}`);
  }
});
