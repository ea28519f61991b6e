import path from 'node:path';
import { z } from 'zod';
import { readVariables, type EnvRecord } from './env-read.js';
import { declareEnv } from './env-registry.js';
import { ROLES, type Role } from './roles.js';
import { SETTINGS_TABLE } from './settings-table.js';

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

/** The two variables of a role, by name (the run config freezes them). */
export function limitVariables(role: Role): string[] {
  return Object.values(limitRows(role)).map((row) => row.env);
}

export function readLimits(env: EnvRecord, runDir = env[SETTINGS_TABLE.runDir.env] ?? '.iwb/runs'): Partial<Record<Role, RoleLimits>> {
  const out: Partial<Record<Role, RoleLimits>> = {};
  for (const role of ROLES) {
    const { concurrency, rpm } = readVariables(limitRows(role), env);
    if (concurrency || rpm) out[role] = { ...(concurrency ? { concurrency } : {}), ...(rpm ? { rpm } : {}), dir: path.resolve(runDir, 'llm-rate') };
  }
  return out;
}
