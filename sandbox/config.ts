import os from 'node:os';
import path from 'node:path';
import type { Settings } from '../config/settings.js';
import type { RoleConfigs } from '../config/roles.js';
import { parseAgentNetworkSetting, roleEndpoint, uniqueEndpoints } from './endpoints.js';
import { parseAgentEnvNames } from './env.js';
import { hiddenPaths } from './exposures.js';
import type { SandboxConfig } from './sandbox.js';

/**
 * The sandbox's configuration from the run's settings: which variables the agent may have, whether
 * running unconfined is accepted, and what no exposure may reveal (the run folder, the report, the
 * built-in tasks' gold files, the dataset; the project root, home and the temporary folder only as a whole).
 */
export function sandboxConfig(settings: Settings, cwd = process.cwd(), roles: RoleConfigs = {}): SandboxConfig {
  const network = parseAgentNetworkSetting(settings.agentNetwork);
  const trees = [settings.runDir, settings.reportDir, path.resolve(cwd, 'tasks')];
  if (settings.dataset !== 'builtin') trees.push(path.dirname(path.resolve(cwd, settings.dataset)));
  return {
    agentEnv: parseAgentEnvNames(settings.agentEnv),
    unsafe: settings.unsafeNoSandbox,
    agentNetwork: network.mode === 'host' ? network : { mode: 'allowlist', endpoints: uniqueEndpoints([...roleEndpoint(roles.agent), ...network.endpoints]) },
    // Compared by real path: a link to the project or the dataset is the project or the dataset.
    hidden: hiddenPaths(trees, [cwd, os.homedir(), os.tmpdir()]),
  };
}
