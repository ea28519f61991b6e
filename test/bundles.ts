/**
 * Unit files share processes (issue #33): a test file in a process of its own costs about 0.6 CPU-s to start (Node,
 * tsx, the modules it imports), and `npm test` has over seventy unit files. A bundle is one process that imports
 * its files one after another; node:test still names each test's own file, so the lines, counts and timings read
 * as before. Only the unit tier is bundled: its files hold no browser and change no process-wide setting for
 * long (a bundle fails if its files leave process.env changed; a file that changes other module-wide state, such as
 * the env registry, is listed in ALONE_FILES of test/tiers.ts). A bundle whose file
 * fails to load fails, and `npm test` with it. A file with a top-level beforeEach or afterEach is never bundled
 * (rootEachHooks): node:test hangs those on the process's root, so they would run around every other file's
 * tests too (found when llm-quirks' afterEach ran after a cli-help test, before its own `before` had made the
 * server it resets).
 */
import { promises as fs, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ALONE_FILES } from './tiers.js';

/** Files per bundle: a few bundles, so the pool's last minutes are not one long bundle alone. */
export const BUNDLE_SIZE = 12;

/** Round-robin, so each bundle gets a share of the slow files (the list comes sorted by name). */
function bundlesOf<T>(files: readonly T[], size = BUNDLE_SIZE): T[][] {
  const n = Math.max(1, Math.ceil(files.length / size));
  const out: T[][] = Array.from({ length: n }, () => []);
  files.forEach((f, i) => out[i % n]!.push(f));
  return out.filter((b) => b.length > 0);
}

/** The top-level beforeEach / afterEach calls of a test file's source, which would apply to its whole bundle. */
export function rootEachHooks(source: string): string[] {
  return [...source.matchAll(/^(beforeEach|afterEach)\(/gm)].map((m) => m[1]!);
}

/**
 * The unit files test/run.ts runs in bundles, as bundles; every other file runs alone. One file alone is not
 * bundled; nor is a file that changes module-wide state or has root each-hooks (canShareAProcess).
 */
export function unitBundles(files: readonly string[], root: string): string[][] {
  const shared = files.length > 1 ? files.filter((f) => canShareAProcess(f, root)) : [];
  return shared.length > 0 ? bundlesOf(shared) : [];
}

function canShareAProcess(file: string, root: string): boolean {
  if (ALONE_FILES.includes(path.basename(file).replace(/\.test\.ts$/, ''))) return false;
  return rootEachHooks(readFileSync(path.join(root, file), 'utf8')).length === 0;
}

/** Files of a bundle share process.env: one that leaves it changed fails the bundle, named by the variables. */
const ENV_GUARD = {
  head: ["import { after } from 'node:test';", 'const before = { ...process.env };'],
  // Registered last, so it runs after every file's own after hooks: a throw skips the hooks after it, and a fake
  // server left open would keep the bundle from ever exiting.
  tail: [
    'after(() => {',
    '  const changed = [...new Set([...Object.keys(before), ...Object.keys(process.env)])].filter((k) => before[k] !== process.env[k]);',
    "  if (changed.length) throw new Error(`a unit file left process.env changed (${changed.join(', ')}): restore it, or list the file among the browser ones (test/tiers.ts)`);",
    '});',
  ],
};

/** Where this process writes its bundles; test/run.ts removes it at the end. */
export const bundleDir = () => path.join(os.tmpdir(), `iwb-test-bundles-${process.pid}`);

/** A module that imports each file in turn; the test runner runs it as one file. */
export async function writeBundle(files: readonly string[], root: string, index: number): Promise<string> {
  const dir = bundleDir();
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, `unit-${index}.mjs`);
  const imports = files.map((f) => `await import(${JSON.stringify(pathToFileURL(path.join(root, f)).href)});`);
  await fs.writeFile(file, [...ENV_GUARD.head, ...imports, ...ENV_GUARD.tail, ''].join('\n'));
  return file;
}
