import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { main } from '../cli/main.js';
import { ReportSchema, type Report } from '../reporters/report-schema.js';
import { capture } from './cli-capture.js';
import { playwrightCommand } from '../testkit/playwright-cli.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

let tmp: string;
before(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-rescore-run-'));
});
after(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

/** One built-in case, offline: the null agent builds nothing, so its slots fail and each keeps a screenshot. */
function run(runDir: string, reportDir: string): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(...playwrightCommand(['test', '--project=p-min', '--grep', '@task-tip-calculator', '--workers=1', '--reporter=line,./reporters/iwb-reporter.ts', '--output', path.join(tmp, 'results')]), {
      cwd: ROOT,
      env: { ...process.env, CI: '', IWB_AGENT: 'null', IWB_DATASET: 'builtin', IWB_LLM_CACHE: 'off', IWB_RUN_DIR: runDir, IWB_REPORT_DIR: reportDir },
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (status) => resolve({ status, output }));
  });
}

const readJson = async (file: string): Promise<Report> => ReportSchema.parse(JSON.parse(await fs.readFile(file, 'utf8')));

/** Every leaf that differs, by path; the time of the re-scoring itself is the one field allowed to. */
function differences(a: unknown, b: unknown, at = ''): string[] {
  if (JSON.stringify(a) === JSON.stringify(b)) return [];
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return [`${at}: ${JSON.stringify(a)} != ${JSON.stringify(b)}`];
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].flatMap((k) => differences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${at}.${k}`));
}

test('iwb report rebuilds a finished run\'s report from its run folder: same report.json field by field, same report.md and case pages, no browser', async () => {
  const runDir = path.join(tmp, 'runs');
  const reportDir = path.join(tmp, 'report');
  const r = await run(runDir, reportDir);
  assert.ok(r.status === 0 || r.status === 1, r.output.slice(-3000));
  assert.match(r.output, /slot records kept in .*scored/);
  const own = await readJson(path.join(reportDir, 'report.json'));
  assert.ok(own.cases.length >= 1 && own.overall.judgedSlots > 0, 'the run judged something');

  const out = path.join(tmp, 'rescored');
  const io = capture();
  const code = await main(['report', runDir, '--out', out], io);
  assert.equal(code, 0, io.errText());
  const again = await readJson(path.join(out, 'report.json'));
  assert.ok(again.meta.rescored, 'the re-scored report says it was re-scored');
  assert.equal(again.meta.rescored.note, undefined, 'same profile: nothing to warn about');
  const { rescored: _ignored, ...againMeta } = again.meta;
  assert.deepEqual(differences({ ...own, meta: own.meta }, { ...again, meta: againMeta }), []);
  assert.equal(await fs.readFile(path.join(out, 'report.md'), 'utf8'), await fs.readFile(path.join(reportDir, 'report.md'), 'utf8'));
  const pages = async (dir: string) => (await fs.readdir(path.join(dir, 'cases'), { recursive: true })).sort();
  assert.deepEqual(await pages(out), await pages(reportDir), 'the same case pages, images included');
  const images = (await pages(out)).filter((f) => f.endsWith('.png') && path.basename(f).startsWith('judge-'));
  assert.ok(images.length > 0, 'failed slots kept their screenshots through the run folder');
  // The run's own test-results are gone by the next run: the re-score must not depend on them.
  await fs.rm(path.join(tmp, 'results'), { recursive: true, force: true });
  const io2 = capture();
  assert.equal(await main(['report', runDir, '--out', path.join(tmp, 'rescored-2')], io2), 0, io2.errText());
  assert.deepEqual(await pages(path.join(tmp, 'rescored-2')), await pages(reportDir));
});
