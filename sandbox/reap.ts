import { promises as fs } from 'node:fs';

/**
 * Kills what a sandbox without a PID namespace left behind: a daemon that called setsid has left the
 * process group the harness kills. As root each sandbox has a uid of its own, which finds every
 * process it started; otherwise the mark in the environment it was started with (/proc/<pid>/environ)
 * does, though a process that re-executes itself with a clean environment escapes that.
 */
export async function reap(uid: number | undefined, mark: string, rounds = 3): Promise<number> {
  const needle = Buffer.from(`SANDBOX_EPISODE_MARK=${mark}\0`);
  let killed = 0;
  for (let round = 0; round < rounds; round++) {
    let found = 0;
    for (const name of await fs.readdir('/proc').catch(() => [] as string[])) {
      if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
      if (!(await matches(name, uid, needle))) continue;
      try {
        process.kill(Number(name), 'SIGKILL');
        found++;
      } catch {
        // Gone already.
      }
    }
    killed += found;
    if (found === 0) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return killed;
}

async function matches(pid: string, uid: number | undefined, needle: Buffer): Promise<boolean> {
  if (uid !== undefined) {
    const status = await fs.readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
    const real = /^Uid:\s+(\d+)/m.exec(status)?.[1];
    return real !== undefined && Number(real) === uid;
  }
  const environ = await fs.readFile(`/proc/${pid}/environ`).catch(() => null);
  return environ !== null && environ.indexOf(needle) >= 0;
}
