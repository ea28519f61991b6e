import { promises as fs } from 'node:fs';
import path from 'node:path';

/**
 * The run folder's lock rule, for work done once per case whatever the number of workers: mkdir is atomic,
 * so exactly one process creates the lock folder and writes its pid inside; a lock whose owner died is
 * removed so the next try can take it.
 */
export async function tryLock(lock: string): Promise<boolean> {
  try {
    await fs.mkdir(lock);
    await fs.writeFile(path.join(lock, 'owner'), String(process.pid));
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    const owner = Number(await fs.readFile(path.join(lock, 'owner'), 'utf8').catch(() => ''));
    if (owner && !isAlive(owner)) await fs.rm(lock, { recursive: true, force: true });
    return false;
  }
}

export async function unlock(lock: string): Promise<void> {
  await fs.rm(lock, { recursive: true, force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
