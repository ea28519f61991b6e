import assert from 'node:assert/strict';
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { caseHref } from '../reporters/case-view.js';
import { playwright, ROOT } from './bench-support.js';

let tmp: string;
before(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-quiet-failure-'));
});
after(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

test("a failing agent's run is quiet: one terminal line per case, one screenshot per distinct failure, and the HTML report kept in the run's report folder", async () => {
  const report = path.join(tmp, 'report');
  const started = Date.now();
  // The config's own reporters (no --reporter): the null agent builds nothing, so every slot fails on the same 404 page.
  // Two slot tests keep it short: the case's first judges all seven slots, the second reads its record.
  const run = await playwright(['test', '--project=p-min', '--grep', 'bakery-menu_P-MIN .* › s[12] @', '--output', path.join(tmp, 'test-results')], {
    IWB_AGENT: 'null',
    IWB_RUN_DIR: path.join(tmp, 'runs'),
    IWB_REPORT_DIR: report,
    PLAYWRIGHT_HTML_OUTPUT_DIR: '',
  });
  assert.equal(run.status, 1, run.output.slice(-3000));
  const lines = run.output.split('\n');
  const caseLines = lines.filter((l) => /^ {2}[✓✘!] \d+\/\d+ /.test(l));
  assert.deepEqual(caseLines.length, 1, run.output);
  assert.match(caseLines[0]!, /bakery-menu_P-MIN .* · 2 slots: 2 failed · /);
  assert.ok(!lines.some((l) => /›.*s\d+ @p-min/.test(l)), 'no line per slot test');
  assert.ok(lines.length < 40, `${lines.length} lines:\n${run.output}`);

  // The HTML report is the run's, beside report.json, with the summary and the case pages it links to.
  const html = path.join(report, 'playwright-report');
  for (const f of ['index.html', 'summary.html', caseHref({ agent: 'null', id: 'bakery-menu_P-MIN', trial: 0 })]) assert.ok(existsSync(path.join(html, f)), f);
  const stale = await fs.stat(path.join(ROOT, 'playwright-report', 'index.html')).catch(() => null);
  assert.ok(!stale || stale.mtimeMs < started, 'no HTML report written where the run was started');

  // Every slot failed on one blank page: one screenshot, in the first slot's test (Playwright's own would add one per slot judged there).
  // Counted per test (the HTML report's data/ folder would fold identical images into one file).
  const pngs = (await fs.readdir(path.join(tmp, 'test-results'), { recursive: true })).filter((f) => f.endsWith('.png') && !f.startsWith('.iwb-judged'));
  assert.equal(pngs.length, 1, pngs.join(', '));
  const sheets = (await fs.readdir(path.join(html, 'data'))).filter((f) => f.endsWith('.html'));
  assert.equal(sheets.length, 2, 'a slot sheet per slot test');
});
