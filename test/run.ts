/**
 * `npm test` (every tier) and `npm run test:unit` (the fast loop): runs the files of the tiers of test/tiers.ts
 * in one pool as wide as the machine's cores, the longest files first and each file weighed by what it keeps
 * busy (test/pool.ts), so that one tier's idle time (a fake model's delays, a child run's start) is another
 * tier's CPU time. Prints a line per top-level test as it ends, each tier's counts when its last file ends, the
 * slowest files, and one closing `N passed, N failed, N skipped` line; exits 1 on any failure.
 * With --checks (npm test), the type check and the lint run beside the files (test/checks.ts), each counted as a test.
 * Usage: node --import tsx test/run.ts [unit|browser|e2e ...] [--only <file-substring>] [--checks]
 */
import os from 'node:os';
import path from 'node:path';
import { run } from 'node:test';
import { runPool } from './pool.js';
import { bundleDir, unitBundles, writeBundle } from './bundles.js';
import { rm } from 'node:fs/promises';
import { CHECKS, describeCheck, runCheck } from './checks.js';
import { closingLine, Progress, recapOf, type Counts, type TestEvent } from './progress-reporter.js';
import { filesOf, longestFirst, TEST_DIR, TIERS, type Tier } from './tiers.js';

const ROOT = path.dirname(TEST_DIR);

function parseArgs(argv: string[]): { tiers: Tier[]; only: string | undefined; checks: boolean } {
  const tiers: Tier[] = [];
  let only: string | undefined;
  let checks = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    if (a === '--only') only = argv[++i];
    else if (a === '--checks') checks = true;
    else if ((TIERS as readonly string[]).includes(a)) tiers.push(a as Tier);
    else throw new Error(`test/run.ts: unknown argument ${a} (tiers: ${TIERS.join(', ')}; --only <file-substring>; --checks)`);
  }
  return { tiers: tiers.length ? tiers : [...TIERS], only, checks };
}

/** A tier's counts and times, gathered from its files as they end. */
interface TierState {
  files: string[];
  left: number;
  counts: Counts;
  firstStart?: number;
  lastEnd?: number;
}

/** Files in a node:test run of their own (one file, or a bundle of unit files): its own Progress, since runs of the pool end interleaved. */
async function runFiles(files: readonly string[], bundle: number | undefined, state: TierState, perFile: Map<string, number>, failures: string[]): Promise<void> {
  state.firstStart ??= Date.now();
  const progress = new Progress();
  const entry = bundle === undefined ? path.join(ROOT, files[0]!) : await writeBundle(files, ROOT, bundle);
  const stream = run({ files: [entry] });
  for await (const event of stream as AsyncIterable<TestEvent>) {
    const line = progress.line(event);
    if (line) process.stdout.write(line);
  }
  state.counts.passed += progress.counts.passed;
  state.counts.failed += progress.counts.failed;
  state.counts.skipped += progress.counts.skipped;
  failures.push(...progress.failures);
  for (const t of progress.timings) perFile.set(t.file, (perFile.get(t.file) ?? 0) + t.ms);
  state.lastEnd = Date.now();
  state.left -= files.length;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(0)} s`;

async function main(): Promise<void> {
  const { tiers, only, checks } = parseArgs(process.argv.slice(2));
  const checking = checks ? CHECKS.map((c) => runCheck(c, ROOT).then((r) => (process.stdout.write(describeCheck(r)), r))) : [];
  const cores = Math.max(2, os.availableParallelism());
  // Measured on 2 cores (issue #33): 2 files at once 936 s, 3 at once 964 s with 12% more CPU time (the
  // files' own child runs and browsers already fill the cores). IWB_TEST_POOL overrides the width.
  const width = Number(process.env.IWB_TEST_POOL) || cores;
  const states = new Map<Tier, TierState>();
  for (const tier of tiers) {
    const files = filesOf(tier).filter((f) => only === undefined || f.includes(only));
    if (files.length) states.set(tier, { files, left: files.length, counts: { passed: 0, failed: 0, skipped: 0 } });
  }
  for (const [tier, s] of states) process.stdout.write(`[${tier}] ${s.files.length} files\n`);
  process.stdout.write(`[pool] ${width} files at once on ${cores} cores, longest first\n\n`);
  const started = Date.now();
  const perFile = new Map<string, number>();
  const failures: string[] = [];
  // Unit files go in bundles (test/bundles.ts), after every other file: the longest start first.
  const all = states.get('unit')?.files ?? [];
  const bundles = unitBundles(all, ROOT);
  const units = bundles.flat();
  const singles = longestFirst([...states].flatMap(([tier, s]) => s.files.filter((f) => !units.includes(f)).map((file) => ({ tier, file })))).map(({ tier, file }) => ({
    tier,
    files: [file],
    bundle: undefined as number | undefined,
  }));
  const bundled = bundles.map((files, i) => ({ tier: 'unit' as Tier, files, bundle: i as number | undefined }));
  const jobs = [...singles, ...bundled].map(({ tier, files, bundle }) => {
    const state = states.get(tier)!;
    return {
      // Every run weighs 1: an e2e run keeps about one core busy, like a unit or browser file with its Chromium.
      weight: 1,
      run: async () => {
        await runFiles(files, bundle, state, perFile, failures);
        if (state.left === 0) process.stdout.write(`[${tier}] ${closingLine(state.counts)} in ${seconds(state.lastEnd! - state.firstStart!)}\n`);
      },
    };
  });
  await runPool(jobs, width);
  await rm(bundleDir(), { recursive: true, force: true });
  const total: Counts = { passed: 0, failed: 0, skipped: 0 };
  for (const r of await Promise.all(checking)) {
    total[r.ok ? 'passed' : 'failed'] += 1;
    if (!r.ok) failures.push(describeCheck(r));
  }
  for (const s of states.values()) {
    total.passed += s.counts.passed;
    total.failed += s.counts.failed;
    total.skipped += s.counts.skipped;
  }
  const walls = [...states].map(([tier, s]) => `${tier} ${seconds(s.lastEnd! - s.firstStart!)}`);
  const slowest = [...perFile].sort((a, b) => b[1] - a[1]).slice(0, 8);
  process.stdout.write(`\nwall: ${seconds(Date.now() - started)} (${walls.join(', ')}, overlapping)\nslowest files: ${slowest.map(([f, ms]) => `${path.basename(f)} ${seconds(ms)}`).join(', ')}\n`);
  // Again at the end: a CI log is often read from its tail, and the failure happened minutes of lines earlier.
  if (failures.length) process.stdout.write(`\nfailed (${failures.length}):\n${failures.map((f) => recapOf(f)).join('')}`);
  // Alone on the last line, the form CI reads.
  process.stdout.write(`${closingLine(total)}\n`);
  if (total.failed > 0 || total.passed === 0) process.exitCode = 1;
}

await main();
