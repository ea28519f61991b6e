import { createRequire } from 'node:module';

/**
 * Playwright's CLI as `npx playwright` runs it, without npx: npx resolves the package and starts a second Node
 * first (about a second of wall and half a CPU-second each time), and the tests and benches start dozens of runs.
 * One test still goes through npx (test/slot-sheet.test.ts, `--list`), the way the README has users start it.
 */
export const PLAYWRIGHT_CLI = createRequire(import.meta.url).resolve('@playwright/test/cli');

/** The command and arguments that run `playwright <args>` in a child process. */
export function playwrightCommand(args: readonly string[]): [string, string[]] {
  return [process.execPath, [PLAYWRIGHT_CLI, ...args]];
}
