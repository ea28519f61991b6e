import type { EnvRecord } from '../config/env-read.js';
import { llmCacheDir, readSettings, type CallCacheMode, type Settings } from '../config/settings.js';
import { CallCache, recordStatsOnExit } from './call-cache.js';
import { createClients, type ClientOptions, type ModelClient } from './client.js';
import { readLimits, type RoleLimits } from '../config/role-limits.js';
import { describePreflight, preflight, type RoleNeeds } from './preflight.js';
import { foundModes, readModes, recordModes, withModes } from './recorded-modes.js';
import { readRoles, type Role, type RoleConfigs } from '../config/roles.js';

/**
 * The model clients of a run and of every command that calls models (`judge calibrate`, `personas`,
 * `dataset build`): one home, so each goes through the model call cache (IWB_LLM_CACHE, IWB_LLM_CACHE_DIR)
 * and the per-role limits (IWB_<ROLE>_CONCURRENCY, IWB_<ROLE>_RPM) alike, and a command recorded once
 * replays with its endpoints gone, as a run does.
 */
export interface ClientSource {
  settings: Pick<Settings, 'llmCache' | 'llmCacheDir' | 'runDir'>;
  roles: RoleConfigs;
  /** Per-role request limits (llm/limits.ts). */
  limits: Partial<Record<Role, RoleLimits>>;
}

export async function modelClients(from: ClientSource, options: Pick<ClientOptions, 'meter' | 'prices'> = {}): Promise<Partial<Record<Role, ModelClient>>> {
  const dir = llmCacheDir(from.settings);
  // A replay asks no endpoint, so no preflight finds the structured-output modes: the recording's are used.
  const roles = from.settings.llmCache === 'replay' ? withModes(from.roles, await readModes(dir)) : from.roles;
  return createClients(roles, { ...options, cache: callCache(from.settings.llmCache, dir), limits: from.limits });
}

const caches = new Map<string, CallCache>();

/** One cache per mode and folder in a process, so its counts reach stats.jsonl once, at exit. */
function callCache(mode: CallCacheMode, dir: string): CallCache {
  const key = `${mode}\0${dir}`;
  let cache = caches.get(key);
  if (!cache) {
    caches.set(key, (cache = new CallCache(mode, dir)));
    recordStatsOnExit(cache);
  }
  return cache;
}

/** A command's clients, from the same variables a run reads. */
export async function commandClients(env: EnvRecord, options: Pick<ClientOptions, 'meter' | 'prices'> = {}): Promise<Partial<Record<Role, ModelClient>>> {
  const settings = readSettings(env);
  return modelClients({ settings, roles: readRoles(env), limits: readLimits(env, settings.runDir) }, options);
}

/**
 * A command's preflight of the roles it uses, as a run's: null when they can do their part, else the
 * message. Under IWB_LLM_CACHE=replay nothing is asked (the endpoints may be gone); when recording, the
 * structured-output modes found are kept for a later replay.
 */
export async function checkCommandRoles(env: EnvRecord, needs: Partial<Record<Role, RoleNeeds>>): Promise<string | null> {
  const settings = readSettings(env);
  if (settings.llmCache === 'replay' || Object.keys(needs).length === 0) return null;
  const report = await preflight(readRoles(env), needs);
  if (!report.ok) return describePreflight(report);
  if (settings.llmCache === 'record') await recordModes(llmCacheDir(settings), foundModes(report));
  return null;
}
