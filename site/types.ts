import type { ResourceLimits } from '../sandbox/policy.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import type { ServedSite } from './site-server.js';

/** How an agent-built site is started: the options callers give, and the resolved ones the starters use. */
export interface SiteOptions {
  installTimeoutMs?: number;
  buildTimeoutMs?: number;
  /** How long a dev or start server has to answer on its port. */
  startTimeoutMs?: number;
  /** The environment site processes draw their allowlisted one from (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** Where the site's processes run (default: the process's sandbox) and their bounds. */
  sandbox?: Sandbox;
  limits?: ResourceLimits;
  /** How much an npm install may put into node_modules. */
  installLimits?: InstallLimits;
}

export interface InstallLimits {
  files: number;
  bytes: number;
}

export interface ResolvedSiteOptions {
  installTimeoutMs: number;
  buildTimeoutMs: number;
  startTimeoutMs: number;
  /** Already reduced to the allowlist. */
  env: Record<string, string>;
  sandbox: Sandbox;
  limits: ResourceLimits;
  installLimits: InstallLimits;
}

export type SiteMode = 'static' | 'dev' | 'build' | 'start' | 'error';

/** A served site plus how it came up and what went wrong on the way, for the agent and the trajectory. */
export interface StartedSite extends ServedSite {
  mode: SiteMode;
  problems: string[];
  log: string;
}
