import { z } from 'zod';
import { ROLES, type Role } from '../llm/roles.js';

/**
 * iwb.config.ts / iwb.config.json: one file to keep a configuration in, share, and commit beside a result.
 * Every key stands for one environment variable (FILE_VARIABLES), so the file and the environment are one
 * configuration with two sources: the environment wins, and each reader validates its values as it always
 * did. Keys never go in the file: a role names the variable that holds its key (`apiKeyEnv`).
 */
const RoleBlockSchema = z
  .object({
    model: z.string().min(1),
    baseURL: z.string().min(1).optional(),
    apiKeyEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be the name of an environment variable, e.g. OPENAI_API_KEY').optional(),
    temperature: z.number().min(0).max(2).optional(),
    seed: z.number().int().optional(),
    /** Structured-output mode of the role's endpoint (read by llm/roles.ts as IWB_<ROLE>_JSON_MODE). */
    jsonMode: z.string().min(1).optional(),
  })
  .strict();
export type RoleBlock = z.infer<typeof RoleBlockSchema>;

export const IwbConfigSchema = z
  .object({
    dataset: z.string().min(1).optional(),
    agent: z.string().min(1).optional(),
    /** The name reports give a `command:` agent. */
    agentName: z.string().min(1).optional(),
    profile: z.string().min(1).optional(),
    runDir: z.string().min(1).optional(),
    reportDir: z.string().min(1).optional(),
    chromium: z.string().min(1).optional(),
    workers: z.number().int().positive().optional(),
    stepCap: z.number().int().positive().optional(),
    agentStepTimeoutMs: z.number().int().positive().optional(),
    /** A price table file, or the table itself. */
    prices: z.union([z.string().min(1), z.record(z.string(), z.object({ promptPerMTok: z.number(), completionPerMTok: z.number() }))]).optional(),
    judge: z.object({ mode: z.enum(['slot', 'case']).optional(), stepCap: z.number().int().min(1).max(50).optional() }).strict().optional(),
    roles: z.object(Object.fromEntries(ROLES.map((r) => [r, RoleBlockSchema.optional()])) as Record<Role, z.ZodOptional<typeof RoleBlockSchema>>).strict().optional(),
  })
  .strict();

/** The type a starter file's `satisfies` checks against. */
export type IwbConfig = z.input<typeof IwbConfigSchema>;

/** File key (dotted path) -> the environment variable it stands for. */
export const FILE_VARIABLES: Record<string, string> = {
  dataset: 'IWB_DATASET',
  agent: 'IWB_AGENT',
  agentName: 'IWB_AGENT_NAME',
  profile: 'IWB_PROFILE',
  runDir: 'IWB_RUN_DIR',
  reportDir: 'IWB_REPORT_DIR',
  chromium: 'IWB_CHROMIUM',
  workers: 'IWB_WORKERS',
  stepCap: 'IWB_STEP_CAP',
  agentStepTimeoutMs: 'IWB_AGENT_STEP_TIMEOUT_MS',
  prices: 'IWB_PRICES',
  'judge.mode': 'IWB_JUDGE_MODE',
  'judge.stepCap': 'IWB_JUDGE_STEP_CAP',
};
const ROLE_FIELDS: Record<Exclude<keyof RoleBlock, 'apiKeyEnv'>, string> = {
  model: 'MODEL',
  baseURL: 'BASE_URL',
  temperature: 'TEMPERATURE',
  seed: 'SEED',
  jsonMode: 'JSON_MODE',
};
for (const role of ROLES) {
  for (const [field, suffix] of Object.entries(ROLE_FIELDS)) FILE_VARIABLES[`roles.${role}.${field}`] = `IWB_${role.toUpperCase()}_${suffix}`;
}

/** A zod issue as "field roles.agent.temperature: ..." with a hint for the usual mistakes. */
export function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.join('.') || '(top level)';
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys;
    const secret = keys.find((k) => /key|token|secret/i.test(k) && k !== 'apiKeyEnv');
    if (secret) return `field ${where ? `${where}.` : ''}${secret}: a key never goes in the config file; put it in an environment variable and name that variable in apiKeyEnv`;
    return `${where}: unknown key${keys.length > 1 ? 's' : ''} ${keys.join(', ')} (known: ${knownKeys(issue.path).join(', ')})`;
  }
  return `field ${where}: ${issue.message}`;
}

function knownKeys(at: readonly PropertyKey[]): string[] {
  if (at.length === 0) return Object.keys(IwbConfigSchema.shape);
  if (at[0] === 'judge') return ['mode', 'stepCap'];
  if (at[0] === 'roles' && at.length === 1) return [...ROLES];
  return Object.keys(RoleBlockSchema.shape);
}
