import os from 'node:os';
import path from 'node:path';
import type { Settings } from '../config/settings.js';
import { parseAgentEnvNames } from './env.js';
import type { SandboxConfig } from './sandbox.js';

/**
 * The sandbox's configuration from the run's settings: which variables the agent may have, whether
 * running unconfined is accepted, and what no exposure may reveal (the run folder, the report, the
 * built-in tasks' gold files, the dataset; the project root and home only as a whole).
 */
export function sandboxConfig(settings: Settings, cwd = process.cwd()): SandboxConfig {
  const trees = [settings.runDir, settings.reportDir, path.resolve(cwd, 'tasks')];
  if (settings.dataset !== 'builtin') trees.push(path.dirname(path.resolve(cwd, settings.dataset)));
  return {
    agentEnv: parseAgentEnvNames(settings.agentEnv),
    unsafe: settings.unsafeNoSandbox,
    hidden: { trees, wholes: [cwd, os.homedir()] },
  };
}
