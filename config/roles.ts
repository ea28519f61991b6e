import { z } from 'zod';
import { readVariables, type EnvRecord } from './env-read.js';
import { declareEnv, declarePlaceholder } from './env-registry.js';
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

/**
 * The IWB_<ROLE>_<SUFFIX> families, a row per RoleConfig field: the schema its text must pass, the shared
 * variable read when the role's own is unset, and (for those a config file's role block may set) the file's
 * type. config/file-schema.ts builds the file's role block from these rows.
 */
export const ROLE_FIELDS = {
  model: { suffix: 'MODEL', schema: z.string().min(1), doc: 'model of a role', file: z.string().min(1) },
  baseURL: { suffix: 'BASE_URL', schema: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).optional(), fallback: 'OPENAI_BASE_URL', doc: 'base URL of a role', file: z.string().min(1) },
  apiKey: { suffix: 'API_KEY', schema: z.string().optional(), fallback: 'OPENAI_API_KEY', secret: true, doc: 'API key of a role' },
  temperature: { suffix: 'TEMPERATURE', schema: z.coerce.number().min(0).max(2).optional(), doc: 'sampling temperature of a role', file: z.number().min(0).max(2) },
  seed: { suffix: 'SEED', schema: z.coerce.number().int().optional(), doc: 'sampling seed of a role', file: z.number().int() },
  jsonMode: { suffix: 'JSON_MODE', schema: z.enum(JSON_MODES, { message: `must be one of ${JSON_MODES.join(', ')}` }).optional(), doc: 'how structured replies are asked for', file: z.string().min(1) },
  timeoutMs: { suffix: 'TIMEOUT_MS', schema: z.coerce.number().int().positive().optional(), doc: 'per-request timeout of a role' },
  maxTokens: { suffix: 'MAX_TOKENS', schema: z.coerce.number().int().positive().optional(), doc: 'max_tokens of every request of a role' },
} as const satisfies Record<string, { suffix: string; schema: z.ZodType; doc: string; fallback?: string; secret?: boolean; file?: z.ZodType }>;
type RoleField = keyof typeof ROLE_FIELDS;

for (const row of Object.values(ROLE_FIELDS)) declareEnv(`IWB_<ROLE>_${row.suffix}`, row.doc);

export function roleVariable(role: Role, field: RoleField): string {
  return `IWB_${role.toUpperCase()}_${ROLE_FIELDS[field].suffix}`;
}

/** One role's rows for the shared reader (config/env-read.ts): the family names made concrete. */
function roleRows(role: Role) {
  const rows = Object.entries(ROLE_FIELDS).map(([field, row]) => [field, { ...row, env: roleVariable(role, field as RoleField) }]);
  return Object.fromEntries(rows) as { [F in RoleField]: (typeof ROLE_FIELDS)[F] & { env: string } };
}

/** Reads every role once; throws naming the variable whose value is wrong. */
export function readRoles(env: EnvRecord): RoleConfigs {
  const out: RoleConfigs = {};
  for (const role of ROLES) {
    // A role with no model of its own is not configured, whatever the shared OPENAI_* pair says.
    if (!env[roleVariable(role, 'model')]?.trim()) continue;
    const v = readVariables(roleRows(role), env);
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
