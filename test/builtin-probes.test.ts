import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from '@playwright/test';
import { serveStatic, type ServedSite } from '../site/site-server.js';
import { CHROMIUM_ARGS, readSettings } from '../config/settings.js';
import { runProbe } from '../judge/probe-runner.js';
import { BuiltinTaskFileSchema, type BuiltinTaskFile } from '../slots/builtin-schema.js';
import { slotWeights } from '../slots/weights.js';

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
let empty: ServedSite;
let emptyDir: string;
const sites = new Map<string, ServedSite>();

before(async () => {
  browser = await chromium.launch({ executablePath: readSettings().chromium, args: CHROMIUM_ARGS });
  emptyDir = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-empty-'));
  await fs.writeFile(path.join(emptyDir, 'index.html'), '<html><body></body></html>');
  empty = await serveStatic(emptyDir);
  for (const t of tasks) sites.set(t.id, await serveStatic(path.join(TASKS_DIR, t.id, 'site')));
});
after(async () => {
  await browser?.close();
  await empty?.close();
  for (const site of sites.values()) await site.close();
  await fs.rm(emptyDir, { recursive: true, force: true });
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
  assert.ok(tasks.length >= 6, `expected at least 6 built-in tasks, found ${tasks.length}`);
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

test('every probe passes on its reference site', { concurrency: CONCURRENCY }, async (tt) => {
  await Promise.all(
    tasks.flatMap((t) =>
      t.slots.map((s) =>
        tt.test(`${t.id} ${s.id}`, async () => {
          // Generous: a passing probe returns as soon as it holds, and a loaded CI machine should not fail it.
          const r = await probeOnce(sites.get(t.id)!.url, s.probe, 5000);
          assert.ok(r.passed, `${t.id} ${s.id}: ${r.evidence}`);
        }),
      ),
    ),
  );
});

test('every probe fails on an empty page', { concurrency: CONCURRENCY }, async (tt) => {
  await Promise.all(
    tasks.flatMap((t) =>
      t.slots.map((s) =>
        tt.test(`${t.id} ${s.id}`, async () => {
          // A short timeout: on an empty page nothing will ever appear, so waiting longer only costs time.
          const r = await probeOnce(empty.url, s.probe, 250);
          assert.equal(r.passed, false, `${t.id} ${s.id} passed on an empty page: ${r.evidence}`);
        }),
      ),
    ),
  );
});

// Everything an over-eager agent tends to add; each NEGATIVE probe must notice at least one of them.
const EXTRAS = `<form><label>Search <input type="search"></label><label>Email <input type="email"></label>
<label>Password <input type="password"></label><select aria-label="Currency"><option>USD</option></select>
<button type="button">Log in</button><button type="button">Register</button><button type="button">Add to cart</button></form>
<a href="https://example.com/">Visit our partner</a><canvas width="10" height="10"></canvas>`;

test('every NEGATIVE probe fails when unrequested extras are added to the reference site', { concurrency: CONCURRENCY }, async (tt) => {
  await Promise.all(
    tasks.flatMap((t) =>
      t.slots
        .filter((s) => s.assertion_type === 'NEGATIVE')
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
