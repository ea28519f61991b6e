import { z } from 'zod';
import { declareEnv, declarePlaceholder } from '../config/env-registry.js';

import { ROLES, type Role } from '../protocol/enums.js';

export { ROLES, type Role } from '../protocol/enums.js';

/**
 * Which model plays which part. Each role reads its own variables so a run can mix endpoints (a local
 * model as the simulated user, a hosted one as the agent); the OPENAI_* pair is the shared fallback.
 * A role with no model is simply not configured: callers take that as "work offline" for that role.
 */
declarePlaceholder('ROLE', ROLES.map((r) => r.toUpperCase()));

export interface RoleConfig {
  role: Role;
  model: string;
  /** Undefined means the SDK's default endpoint (api.openai.com). */
  baseURL?: string;
  apiKey: string;
  temperature?: number;
  seed?: number;
  /** How structured replies are asked for; `auto` finds out (see llm/structured-mode.ts). */
  jsonMode?: JsonMode;
  /** Per HTTP attempt; a whole-site implement on a slow local server needs minutes. */
  timeoutMs?: number;
  /** Sent as max_tokens on every request: without one, some servers generate until the context is full. */
  maxTokens?: number;
}

export const JSON_MODES = ['auto', 'json_schema', 'json_object', 'prompt'] as const;
export type JsonMode = (typeof JSON_MODES)[number];

/**
 * Per-role defaults: a whole site in one implement needs far more tokens (and time) than a verdict or a
 * one-sentence answer. Measured replies: verdict JSON < 600 tokens, user answers < 200, sites 2-12k.
 */
export const ROLE_DEFAULTS: Record<Role, { timeoutMs: number; maxTokens: number }> = {
  agent: { timeoutMs: 300_000, maxTokens: 16_384 },
  user: { timeoutMs: 120_000, maxTokens: 1_024 },
  judge: { timeoutMs: 180_000, maxTokens: 2_048 },
  copilot: { timeoutMs: 180_000, maxTokens: 2_048 },
  operator: { timeoutMs: 180_000, maxTokens: 4_096 },
};

export type RoleConfigs = Partial<Record<Role, RoleConfig>>;

const RoleSchema = z.object({
  model: z.string().min(1),
  baseURL: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).optional(),
  apiKey: z.string().optional(),
  temperature: z.coerce.number().min(0).max(2).optional(),
  seed: z.coerce.number().int().optional(),
  jsonMode: z.enum(JSON_MODES, { message: `must be one of ${JSON_MODES.join(', ')}` }).optional(),
  timeoutMs: z.coerce.number().int().positive().optional(),
  maxTokens: z.coerce.number().int().positive().optional(),
});
type RoleField = keyof z.infer<typeof RoleSchema>;

/** Each field is one family of variables, IWB_<ROLE>_<SUFFIX>, declared here where it is read. */
const SUFFIX: Record<RoleField, string> = {
  model: 'MODEL',
  baseURL: 'BASE_URL',
  apiKey: 'API_KEY',
  temperature: 'TEMPERATURE',
  seed: 'SEED',
  jsonMode: 'JSON_MODE',
  timeoutMs: 'TIMEOUT_MS',
  maxTokens: 'MAX_TOKENS',
};
for (const suffix of Object.values(SUFFIX)) declareEnv(`IWB_<ROLE>_${suffix}`, `per-role ${suffix.toLowerCase().replace('_', ' ')}`);

export function roleVariable(role: Role, field: RoleField): string {
  return `IWB_${role.toUpperCase()}_${SUFFIX[field]}`;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** Reads every role once; throws naming the variable whose value is wrong. */
export function readRoles(env: Readonly<Record<string, string | undefined>>): RoleConfigs {
  const out: RoleConfigs = {};
  for (const role of ROLES) {
    const model = nonEmpty(env[roleVariable(role, 'model')]);
    if (model === undefined) continue;
    // Remember which variable each value came from, so an error names the one the user actually set.
    const sources: Partial<Record<RoleField, string>> = { model: roleVariable(role, 'model') };
    const raw: Partial<Record<RoleField, string>> = { model };
    const pick = (field: RoleField, fallback?: string): void => {
      const own = roleVariable(role, field);
      const value = nonEmpty(env[own]);
      if (value !== undefined) {
        raw[field] = value;
        sources[field] = own;
      } else if (fallback !== undefined && nonEmpty(env[fallback]) !== undefined) {
        raw[field] = nonEmpty(env[fallback]);
        sources[field] = fallback;
      }
    };
    pick('baseURL', 'OPENAI_BASE_URL');
    pick('apiKey', 'OPENAI_API_KEY');
    pick('temperature');
    pick('seed');
    pick('jsonMode');
    pick('timeoutMs');
    pick('maxTokens');

    const parsed = RoleSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path[0] as RoleField;
      const variable = sources[field] ?? roleVariable(role, field);
      const shown = field === 'apiKey' ? '(hidden)' : JSON.stringify(raw[field]);
      throw new Error(`environment variable ${variable}: ${issue.message} (got ${shown})`);
    }
    const v = parsed.data;
    // The hosted API refuses anonymous calls; a local endpoint usually takes any key, so only then is a blank key fine.
    if (v.apiKey === undefined && v.baseURL === undefined) {
      throw new Error(
        `environment variable ${roleVariable(role, 'apiKey')}: required when ${roleVariable(role, 'model')} is set ` +
          `and no ${roleVariable(role, 'baseURL')} / OPENAI_BASE_URL points at a local endpoint (set it or OPENAI_API_KEY)`,
      );
    }
    out[role] = {
      role,
      model: v.model,
      apiKey: v.apiKey ?? 'not-needed',
      ...(v.baseURL !== undefined ? { baseURL: v.baseURL } : {}),
      ...(v.temperature !== undefined ? { temperature: v.temperature } : {}),
      ...(v.seed !== undefined ? { seed: v.seed } : {}),
      jsonMode: v.jsonMode ?? 'auto',
      timeoutMs: v.timeoutMs ?? ROLE_DEFAULTS[role].timeoutMs,
      maxTokens: v.maxTokens ?? ROLE_DEFAULTS[role].maxTokens,
    };
  }
  return out;
}
