/**
 * The type check and the lint of `npm test`, run beside the test files instead of before them (issue #33: one
 * after the other they took 25 s of a 12-minute run before the first test started). They run at a lower CPU
 * priority, so they take the cores the test files leave idle and slow no file's timed waits; their output is
 * printed when they end, and either failing fails `npm test` as before.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

export interface CheckResult {
  name: string;
  ok: boolean;
  seconds: number;
  output: string;
}

export interface Check {
  name: string;
  /** A program in node_modules/.bin and its arguments. */
  bin: string;
  args: string[];
}

export const CHECKS: readonly Check[] = [
  { name: 'typecheck', bin: 'tsc', args: ['--noEmit'] },
  { name: 'lint', bin: 'eslint', args: ['.'] },
];

/** Linux's and macOS's nice(1): the checks yield the CPU to the test files. */
const NICE = ['/usr/bin/nice', '/bin/nice'].find((p) => existsSync(p));

export function runCheck(check: Check, root: string): Promise<CheckResult> {
  const started = Date.now();
  const bin = path.join(root, 'node_modules', '.bin', check.bin);
  const [command, args] = NICE ? [NICE, ['-n', '10', bin, ...check.args]] : [bin, check.args];
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const done = (ok: boolean, extra = '') => resolve({ name: check.name, ok, seconds: (Date.now() - started) / 1000, output: output + extra });
    child.on('error', (e) => done(false, `could not start ${check.bin}: ${e.message}`));
    child.on('close', (code) => done(code === 0));
  });
}

export function describeCheck(r: CheckResult): string {
  const head = `[${r.name}] ${r.ok ? 'passed' : 'FAILED'} in ${r.seconds.toFixed(0)} s`;
  return r.ok ? `${head}\n` : `${head}\n${r.output.trim()}\n`;
}
