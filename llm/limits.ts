import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { RoleLimits } from '../config/role-limits.js';
import type { Role } from '../config/roles.js';
import { writeAtomic } from '../protocol/atomic-write.js';
import { tryLock, unlock } from '../protocol/file-lock.js';
import { Semaphore } from '../protocol/semaphore.js';

/** The limiter of config/role-limits.ts's settings (IWB_<ROLE>_CONCURRENCY, IWB_<ROLE>_RPM). */
export type { RoleLimits };

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** One per endpoint and model in the process, whichever client asks. */
const semaphores = new Map<string, Semaphore>();

/** The pacer file is read and written under a lock; one left by a killed process is taken over at once. */
async function withLock<T>(lock: string, work: () => Promise<T>): Promise<T> {
  while (!(await tryLock(lock))) await sleep(5 + Math.random() * 10);
  try {
    return await work();
  } finally {
    await unlock(lock);
  }
}

/** The next free instant in a pacer file; none yet, or a file torn by an older harness, is "now". */
async function nextFree(file: string): Promise<number> {
  const text = await fs.readFile(file, 'utf8').catch(() => '');
  try {
    return Number((JSON.parse(text) as { next?: unknown }).next) || 0;
  } catch {
    return 0;
  }
}

/** Waits for this request's turn under the shared per-minute pace; returns when it may be sent. */
export async function takeTurn(dir: string, key: string, rpm: number): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, `${key.replace(/[^a-zA-Z0-9_.-]+/g, '_')}.json`);
  const slot = await withLock(`${file}.lock`, async () => {
    const at = Math.max(Date.now(), await nextFree(file));
    await writeAtomic(file, JSON.stringify({ next: at + 60_000 / rpm }));
    return at;
  });
  const wait = slot - Date.now();
  if (wait > 0) await sleep(wait);
}

/** Runs one HTTP attempt under the role's limits (none configured: at once). */
export function limited<T>(limits: RoleLimits | undefined, endpoint: string, role: Role, work: () => Promise<T>): Promise<T> {
  if (!limits) return work();
  const paced = limits.rpm ? () => takeTurn(limits.dir, `${role}-${endpoint}`, limits.rpm!).then(work) : work;
  if (!limits.concurrency) return paced();
  const key = `${endpoint}#${limits.concurrency}`;
  let s = semaphores.get(key);
  if (!s) semaphores.set(key, (s = new Semaphore(limits.concurrency)));
  return s.run(paced);
}
