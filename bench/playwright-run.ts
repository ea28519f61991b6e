import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cliEnv } from '../cli/io.js';
import { playwrightCommand } from '../testkit/playwright-cli.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** `playwright test` in the project, CI-shaped; stderr is passed through, the last 4 kB of output kept for an error. */
export function playwright(args: string[], env: Record<string, string>): Promise<{ code: number | null; seconds: number; tail: string }> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(...playwrightCommand(['test', ...args]), { cwd: ROOT, env: { ...cliEnv(), CI: '1', ...env } });
    let tail = '';
    const keep = (d: Buffer) => {
      tail = (tail + d.toString()).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', (d: Buffer) => {
      keep(d);
      process.stderr.write(d);
    });
    child.on('close', (code) => resolve({ code, seconds: (Date.now() - t0) / 1000, tail }));
  });
}

