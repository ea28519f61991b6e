/**
 * `npm test` (every tier) and `npm run test:unit` (the fast loop): runs the tiers of test/tiers.ts one after
 * another, each with its own number of files at once, prints a line per top-level test as it ends, the slowest
 * files, and one closing `N passed, N failed, N skipped` line; exits 1 on any failure.
 * Usage: node --import tsx test/run.ts [unit|browser|e2e ...] [--only <file-substring>]
 */
import os from 'node:os';
import path from 'node:path';
import { run } from 'node:test';
import { closingLine, Progress, type Counts, type TestEvent } from './progress-reporter.js';
import { CONCURRENCY, filesOf, TEST_DIR, TIERS, type Tier } from './tiers.js';

const ROOT = path.dirname(TEST_DIR);

function parseArgs(argv: string[]): { tiers: Tier[]; only: string | undefined } {
  const tiers: Tier[] = [];
  let only: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    if (a === '--only') only = argv[++i];
    else if ((TIERS as readonly string[]).includes(a)) tiers.push(a as Tier);
    else throw new Error(`test/run.ts: unknown argument ${a} (tiers: ${TIERS.join(', ')}; --only <file-substring>)`);
  }
  return { tiers: tiers.length ? tiers : [...TIERS], only };
}

async function runTier(tier: Tier, files: string[], total: Counts): Promise<{ ms: number; timings: Progress['timings'] }> {
  const concurrency = CONCURRENCY[tier](os.availableParallelism());
  process.stdout.write(`\n[${tier}] ${files.length} files, ${concurrency} at once\n`);
  const started = Date.now();
  const progress = new Progress();
  const stream = run({ files: files.map((f) => path.join(ROOT, f)), concurrency });
  for await (const event of stream as AsyncIterable<TestEvent>) {
    const line = progress.line(event);
    if (line) process.stdout.write(line);
  }
  const ms = Date.now() - started;
  process.stdout.write(`[${tier}] ${closingLine(progress.counts)} in ${(ms / 1000).toFixed(0)} s\n`);
  total.passed += progress.counts.passed;
  total.failed += progress.counts.failed;
  total.skipped += progress.counts.skipped;
  return { ms, timings: progress.timings };
}

async function main(): Promise<void> {
  const { tiers, only } = parseArgs(process.argv.slice(2));
  const total: Counts = { passed: 0, failed: 0, skipped: 0 };
  const perFile = new Map<string, number>();
  const walls: string[] = [];
  for (const tier of tiers) {
    const files = filesOf(tier).filter((f) => only === undefined || f.includes(only));
    if (files.length === 0) continue;
    const { ms, timings } = await runTier(tier, files, total);
    walls.push(`${tier} ${(ms / 1000).toFixed(0)} s`);
    for (const t of timings) perFile.set(t.file, (perFile.get(t.file) ?? 0) + t.ms);
  }
  const slowest = [...perFile].sort((a, b) => b[1] - a[1]).slice(0, 8);
  process.stdout.write(`\nwall: ${walls.join(', ')}\nslowest files: ${slowest.map(([f, ms]) => `${path.basename(f)} ${(ms / 1000).toFixed(0)} s`).join(', ')}\n`);
  // Alone on the last line, the form CI reads.
  process.stdout.write(`${closingLine(total)}\n`);
  if (total.failed > 0 || total.passed === 0) process.exitCode = 1;
}

await main();
