import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ModelClient } from '../llm/client.js';
import type { Role, RoleConfigs } from '../config/roles.js';
import type { Case } from '../slots/schema.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import type { Agent } from './types.js';

/** What an adapter's start-up check may look at: the cases the run plays, the roles, where a program runs. */
export interface StartCheckContext {
  cases: readonly Case[];
  roles: RoleConfigs;
  cwd: string;
  env: NodeJS.ProcessEnv;
  sandbox: Sandbox;
  commandStepTimeoutMs?: number;
}

/** What an adapter may use besides its argument: the run's model clients, one per configured role. */
export interface AdapterDeps {
  clients: Partial<Record<Role, ModelClient>>;
  /** Per-message answer limit for `command:` agents (default 300 s). */
  commandStepTimeoutMs?: number;
  /** Where `command:` agents run and what environment they inherit (defaults: this process's). */
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** IWB_AGENT_NAME: how reports name a `command:` agent, so two programs are two rows, not two `command`s. */
  agentName?: string;
  /** Where untrusted processes run (default: the process's, sandbox/sandbox.ts). */
  sandbox?: Sandbox;
  /** The reference baseline's own dependency: a case's reference site folder (the only hidden data an adapter gets). */
  referenceSite?: (caseId: string) => string | undefined;
}

/**
 * What an adapter file exports as `adapter`. `IWB_AGENT=<name>` or `<name>:<argument>` selects it; the
 * argument (a command line, a model name) is the adapter's to interpret. Adapters are found by listing
 * agent/adapters/, so adding one is adding one file.
 */
export interface AdapterModule {
  name: string;
  describe: string;
  create(argument: string | undefined, deps: AdapterDeps): Agent;
  /**
   * Run once by the runner before any test (agent/start-check.ts): throws a message naming the variable
   * and the fix when this agent cannot run the configuration; returns lines the run announces.
   */
  check?(argument: string | undefined, ctx: StartCheckContext): Promise<string[]>;
}

const ADAPTERS_DIR = fileURLToPath(new URL('./adapters/', import.meta.url));

export async function listAdapters(): Promise<AdapterModule[]> {
  const files = (await fs.readdir(ADAPTERS_DIR)).filter((f) => /\.(ts|js|mjs)$/.test(f) && !f.endsWith('.d.ts')).sort();
  const modules: AdapterModule[] = [];
  for (const f of files) {
    const mod = (await import(pathToFileURL(path.join(ADAPTERS_DIR, f)).href)) as { adapter?: AdapterModule };
    if (mod.adapter) modules.push(mod.adapter);
  }
  return modules;
}

export interface ResolvedAgent {
  agent: Agent;
  /** Set when nothing was configured and the default was chosen, so the run can say so. */
  defaulted: boolean;
}

export const DEFAULT_AGENT = 'reference';

export async function resolveAgent(spec: string, deps: AdapterDeps = { clients: {} }): Promise<ResolvedAgent> {
  const defaulted = spec.trim() === '';
  const text = defaulted ? DEFAULT_AGENT : spec.trim();
  const colon = text.indexOf(':');
  const name = colon < 0 ? text : text.slice(0, colon);
  const argument = colon < 0 ? undefined : text.slice(colon + 1);
  const adapters = await listAdapters();
  const found = adapters.find((a) => a.name === name);
  if (!found) {
    throw new Error(`IWB_AGENT=${spec}: no agent adapter named "${name}"; known: ${adapters.map((a) => a.name).join(', ')}`);
  }
  return { agent: found.create(argument, deps), defaulted };
}
