import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { playwrightCommand } from '../testkit/playwright-cli.js';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface CommandRun {
  status: number | null;
  output: string;
  seconds: number;
}

/**
 * Runs a command from the repository root as a user would. Asynchronous on purpose: a fake model server
 * in this process must keep answering while the child runs.
 */
export function runCommand(command: string, args: string[], env: Record<string, string>, timeoutMs = 300_000): Promise<CommandRun> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, output, seconds: (Date.now() - started) / 1000 });
    });
  });
}

/** `npx playwright <args>` with the environment a benchmark run needs to stay out of the working tree. */
export function playwright(args: string[], env: Record<string, string>): Promise<CommandRun> {
  // CI=1 forbids test.only, as in CI; IWB_AGENT '' is the reference agent.
  return runCommand(...playwrightCommand(args), { CI: '1', IWB_AGENT: '', ...env });
}
