import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { startSite } from '../site/site.js';
import { CHROMIUM_ARGS, readSettings } from '../config/settings.js';
import { runProbe } from '../judge/probe-runner.js';
import { BuiltinTaskFileSchema } from '../slots/builtin-schema.js';

/**
 * The Vite task's reference site as the benchmark serves it: copied into a workspace, `npm install`
 * (Vite from the npm registry, lifecycle scripts off), `npm run dev` on a free port, then every probe.
 * The other probe tests serve its source folder statically, which works only because it uses no bare
 * imports; this test proves the npm path itself. It needs the npm registry (about 15-30 s).
 */
const TASK = fileURLToPath(new URL('../tasks/unit-converter/', import.meta.url));

test('unit-converter (a Vite project): installed and served by npm run dev, every probe passes', { timeout: 300_000 }, async () => {
  const t = BuiltinTaskFileSchema.parse(JSON.parse(await fs.readFile(path.join(TASK, 'task.json'), 'utf8')));
  const pkg = JSON.parse(await fs.readFile(path.join(TASK, 'site', 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  assert.ok(pkg.devDependencies.vite, 'a Vite project');
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-vite-'));
  await fs.cp(path.join(TASK, 'site'), work, { recursive: true });
  const site = await startSite(work);
  const browser = await chromium.launch({ executablePath: readSettings(process.env).chromium, args: CHROMIUM_ARGS });
  try {
    assert.equal(site.mode, 'dev', `served by the dev server: ${site.problems.join('\n')}`);
    const html = await (await fetch(site.url)).text();
    assert.match(html, /@vite\/client/, 'Vite serves the page');
    for (const s of t.slots) {
      const context = await browser.newContext();
      try {
        const r = await runProbe(await context.newPage(), site.url, s.probe, { timeoutMs: 5000 });
        assert.ok(r.passed, `${s.id}: ${r.evidence}`);
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await site.close();
    await fs.rm(work, { recursive: true, force: true });
  }
});
