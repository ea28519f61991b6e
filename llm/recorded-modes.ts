import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { writeAtomic } from '../protocol/atomic-write.js';
import { modesFile } from './call-cache.js';
import type { PreflightReport } from './preflight.js';
import { JSON_MODES, roleVariable, type Role, type RoleConfigs } from '../config/roles.js';

/**
 * The structured-output mode each `auto` role's preflight found, kept in the model call cache folder
 * (`modes.json`, by variable name: `IWB_JUDGE_JSON_MODE: "json_object"`), so a replay, which asks no
 * endpoint anything, shapes its requests as the recording did and finds them in the cache.
 */
export type RecordedModes = Record<string, (typeof JSON_MODES)[number]>;

export async function readModes(cacheDir: string): Promise<RecordedModes> {
  const file = modesFile(cacheDir);
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return {};
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // reported below
  }
  const parsed = z.record(z.string().regex(/^IWB_[A-Z]+_JSON_MODE$/), z.enum(JSON_MODES)).safeParse(json);
  if (!parsed.success) throw new Error(`[iwb] ${file}: not a record of structured-output modes (${parsed.error.issues[0]?.message}); delete it to record again`);
  return parsed.data;
}

/** The modes a preflight found, by variable, added to those recorded before. */
export function foundModes(report: PreflightReport): RecordedModes {
  const found: RecordedModes = {};
  for (const r of report.roles) if (r.structuredOutput) found[roleVariable(r.role as Role, 'jsonMode')] = r.structuredOutput;
  return found;
}

export async function recordModes(cacheDir: string, found: RecordedModes): Promise<void> {
  await mkdir(path.dirname(modesFile(cacheDir)), { recursive: true });
  await writeAtomic(modesFile(cacheDir), JSON.stringify({ ...(await readModes(cacheDir)), ...found }, null, 2));
}

/** Roles left on `auto` take the recorded mode; a mode set by the user stays. */
export function withModes(roles: RoleConfigs, modes: RecordedModes): RoleConfigs {
  const out: RoleConfigs = {};
  for (const [role, config] of Object.entries(roles) as Array<[Role, NonNullable<RoleConfigs[Role]>]>) {
    const recorded = modes[roleVariable(role, 'jsonMode')];
    out[role] = (config.jsonMode ?? 'auto') === 'auto' && recorded ? { ...config, jsonMode: recorded } : config;
  }
  return out;
}
