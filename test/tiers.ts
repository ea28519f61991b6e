/**
 * The test tiers. `unit` is every test file not listed below: pure code, fakes on 127.0.0.1, no browser; it must
 * stay under 2 minutes (`npm run test:unit`, the fast loop). `browser` files open Chromium pages or sandboxes but
 * no whole run; `e2e` files spawn whole Playwright runs or benches. A new test file that starts a browser or a run
 * belongs in one of the lists: test/tiers.test.ts fails when a listed file is missing. test/run.ts runs the files
 * of every tier asked for in one pool, as wide as the cores, each weighed below and the longest first.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const TEST_DIR = path.dirname(fileURLToPath(import.meta.url));

export type Tier = 'unit' | 'browser' | 'e2e';
export const TIERS: readonly Tier[] = ['unit', 'browser', 'e2e'];

export const BROWSER_FILES: readonly string[] = [
  'agent-artifact', 'agent-audit', 'agent-command', 'agent-openai', 'agent-paper', 'agent-public-case', 'agent-python',
  'agent-site', 'builtin-npm-site', 'builtin-probes', 'case-viewer', 'chromium', 'crash-rule',
  'episode-budget', 'episode-judgements', 'hostile-sites', 'judge-llm', 'judge-paper-session', 'judge-session-golden', 'judge-som',
  'judge-visual', 'model-faults', 'page-errors', 'probe-runner', 'sandbox', 'judge-calibration', 'settle',
  'judge-calibration-sites', 'agent-start-check', 'dataset-errors', 'episode-outcomes', 'hostile-mounts', 'hostile-network', 'hostile-popups',
  'integrity-links', 'isolation-report', 'slot-sheet', 'summary-table', 'browser-loss', 'fresh-page',
];

/**
 * Unit files that change what a process keeps module-wide beyond process.env (the env registry, say), so they
 * run in a process of their own rather than in a bundle (test/bundles.ts): env-registry declares a variable
 * that a docs table rendered later in the same process would then list.
 */
export const ALONE_FILES: readonly string[] = ['env-registry'];

export const E2E_FILES: readonly string[] = [
  'allure', 'bench', 'benchmark-e2e', 'compare', 'judge-playwright', 'kill-resume', 'llm-cache', 'llm-limits',
  'profile-run', 'readme-shard', 'real-latency', 'report-shard', 'run-locks', 'compile-cache', 'quiet-failure',
  'rescore-run', 'no-usage-run', 'cases-ahead',
];

export function tierOf(file: string): Tier {
  const name = path.basename(file).replace(/\.test\.ts$/, '');
  if (E2E_FILES.includes(name)) return 'e2e';
  if (BROWSER_FILES.includes(name)) return 'browser';
  return 'unit';
}

/** Every test file of the tier, as paths relative to the project root (sorted: the same order on every machine). */
export function filesOf(tier: Tier): string[] {
  return readdirSync(TEST_DIR)
    .filter((f) => f.endsWith('.test.ts') && tierOf(f) === tier)
    .sort()
    .map((f) => path.join('test', f));
}

/**
 * The files that take longest, longest first (wall seconds alone on the machine, measured for issue #33): they
 * start first, so the pool ends with short files instead of one long file alone. Every other file follows in
 * its tier's order. A file missing here only starts later; a name here without a file is ignored.
 */
export const LONGEST: readonly string[] = [
  'benchmark-e2e', 'builtin-probes', 'hostile-sites', 'bench', 'judge-calibration', 'judge-calibration-sites', 'report-shard',
  'llm-cache', 'cases-ahead', 'judge-playwright', 'allure', 'kill-resume', 'case-viewer', 'profile-run', 'real-latency', 'judge-session-golden',
  'builtin-npm-site', 'crash-rule', 'rescore-run', 'no-usage-run',
];

export function longestFirst<T extends { file: string }>(jobs: readonly T[]): T[] {
  const rank = (j: T) => {
    const i = LONGEST.indexOf(path.basename(j.file).replace(/\.test\.ts$/, ''));
    return i === -1 ? LONGEST.length : i;
  };
  // Array.prototype.sort is stable: files of equal rank keep their tier's order.
  return [...jobs].sort((a, b) => rank(a) - rank(b));
}
