import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { readVariables, type EnvRecord } from '../config/env-read.js';
import { declareEnv } from '../config/env-registry.js';
import { SETTINGS_VARIABLES } from '../config/settings.js';
import { ROLES, type Role } from './roles.js';
import { writeAtomic } from '../protocol/atomic-write.js';
import { tryLock, unlock } from '../protocol/file-lock.js';

/**
 * How hard a role may press its endpoint: at most N requests in flight per endpoint and model in this process
 * (IWB_<ROLE>_CONCURRENCY), and at most R requests a minute across every Playwright worker (IWB_<ROLE>_RPM).
 * The minute limit is a pacer shared through a file in the run folder: each request takes the next free
 * instant (`next`), spaced 60000/R ms apart, under a lock file, so 2 workers x 4 projects stay under one
 * provider's limit without talking to each other.
 */
const CONCURRENCY = declareEnv('IWB_<ROLE>_CONCURRENCY', 'per-role requests in flight per endpoint and model, per process');
const RPM = declareEnv('IWB_<ROLE>_RPM', 'per-role requests per minute, shared by all workers of a run');

export interface RoleLimits {
  concurrency?: number;
  rpm?: number;
  /** The folder holding the shared pacer files (the run folder). */
  dir: string;
}

const POSITIVE = 'must be a positive integer';
const positive = z.coerce.number({ message: POSITIVE }).int({ message: POSITIVE }).positive({ message: POSITIVE }).optional();

/** One role's two variables, for the shared reader (config/env-read.ts). */
function limitRows(role: Role) {
  const name = (family: string) => family.replace('<ROLE>', role.toUpperCase());
  return { concurrency: { env: name(CONCURRENCY), schema: positive }, rpm: { env: name(RPM), schema: positive } };
}

export function readLimits(env: EnvRecord, runDir = env[SETTINGS_VARIABLES.runDir] ?? '.iwb/runs'): Partial<Record<Role, RoleLimits>> {
  const out: Partial<Record<Role, RoleLimits>> = {};
  for (const role of ROLES) {
    const { concurrency, rpm } = readVariables(limitRows(role), env);
    if (concurrency || rpm) out[role] = { ...(concurrency ? { concurrency } : {}), ...(rpm ? { rpm } : {}), dir: path.resolve(runDir, 'llm-rate') };
  }
  return out;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private readonly size: number) {}
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((r) => this.waiting.push(r));
    else this.active++;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

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
