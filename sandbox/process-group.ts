import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

/**
 * Child processes started as the leader of their own process group, so closing one also ends whatever
 * it started (npm runs a shell that runs vite that runs esbuild): `kill(-pgid)` reaches all of them.
 * Groups still alive when the harness exits are killed on the way out, so no dev server outlives a run.
 */

const live = new Set<number>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const pgid of live) signalGroup(pgid, 'SIGKILL');
  });
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // Already gone: nothing to do.
  }
}

export interface GroupProcess {
  child: ChildProcess;
  /** Combined stdout and stderr, the most recent `keepBytes` of it. */
  output(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal name) once the leader has exited. */
  exited: Promise<number | string>;
  hasExited(): boolean;
  /** SIGTERM to the whole group, SIGKILL after `graceMs`; resolves once the leader is gone. */
  kill(graceMs?: number): Promise<void>;
}

export interface GroupOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Spawn through /bin/sh, for a command line given as one string. */
  shell?: boolean;
  stdin?: 'ignore' | 'pipe';
  keepBytes?: number;
  onStdout?: (chunk: string) => void;
}

export function spawnGroup(command: string, args: string[], options: GroupOptions): GroupProcess {
  installExitHook();
  const keep = options.keepBytes ?? 64 * 1024;
  let combined = '';
  let errText = '';
  const spawnOptions: SpawnOptions = {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    shell: options.shell ?? false,
    stdio: [options.stdin ?? 'ignore', 'pipe', 'pipe'],
  };
  const child = spawn(command, args, spawnOptions);
  let done = false;
  const exited = new Promise<number | string>((resolve) => {
    child.once('error', (e) => {
      combined += `\n${e.message}\n`;
      errText += `${e.message}\n`;
      done = true;
      resolve(`spawn error: ${e.message}`);
    });
    // 'close' rather than 'exit': it comes after stdout is drained, so a last line printed before exiting is not lost.
    child.once('close', (code, signal) => {
      done = true;
      if (child.pid !== undefined) live.delete(child.pid);
      resolve(code ?? signal ?? 'unknown');
    });
  });
  if (child.pid !== undefined) live.add(child.pid);
  child.stdout?.setEncoding('utf8');
  child.stderr?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    combined = (combined + chunk).slice(-keep);
    options.onStdout?.(chunk);
  });
  child.stderr?.on('data', (chunk: string) => {
    combined = (combined + chunk).slice(-keep);
    errText = (errText + chunk).slice(-keep);
  });

  return {
    child,
    output: () => combined,
    stderr: () => errText,
    exited,
    hasExited: () => done,
    async kill(graceMs = 2000) {
      const pgid = child.pid;
      if (pgid === undefined) return;
      // The leader may be gone while its children still run (npm exits, vite stays): signal the group anyway.
      signalGroup(pgid, 'SIGTERM');
      if (!done) {
        const timer = new Promise<void>((r) => setTimeout(r, graceMs).unref());
        await Promise.race([exited, timer]);
      }
      signalGroup(pgid, 'SIGKILL');
      live.delete(pgid);
      if (!done) await Promise.race([exited, new Promise<void>((r) => setTimeout(r, 1000).unref())]);
    },
  };
}

/** Waits for the process to exit within `timeoutMs`; kills its group on timeout. */
export async function runToEnd(proc: GroupProcess, timeoutMs: number): Promise<{ code: number | string; timedOut: boolean }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((r) => {
    timer = setTimeout(() => r('timeout'), timeoutMs);
  });
  const first = await Promise.race([proc.exited, timeout]);
  clearTimeout(timer);
  if (first === 'timeout') {
    await proc.kill(500);
    return { code: 'timeout', timedOut: true };
  }
  // The leader exited; anything it left behind in the group goes too.
  await proc.kill(0);
  return { code: first, timedOut: false };
}

/** The last lines of a log, for an observation the agent can read without drowning in it. */
export function tail(text: string, lines = 25, chars = 3000): string {
  const cut = text.trimEnd().split('\n').slice(-lines).join('\n');
  return cut.length > chars ? '…' + cut.slice(-chars) : cut;
}
