/**
 * Environments for processes the harness starts on an agent's behalf. An agent-written site runs code
 * the model chose, so it must not find the run's credentials in its environment, nor the IWB_ settings
 * that point at the dataset and its gold instructions.
 */

const SECRET_PATTERNS: RegExp[] = [
  /_API_KEY$/i,
  /_TOKEN$/i,
  /SECRET/i,
  /PASSWORD/i,
  /CREDENTIAL/i,
  /^OPENAI_/i,
  /^ANTHROPIC_/i,
  /^IWB_/i,
];

// npm describes the package it runs in these; inherited from `npm run bench`, they would describe the
// harness, not the agent's project.
const NPM_CONTEXT = [/^npm_lifecycle_/i, /^npm_package_/i, /^npm_config_argv$/i];

export function isSecretVariable(name: string): boolean {
  return SECRET_PATTERNS.some((p) => p.test(name));
}

/** The base environment minus secrets and harness settings, plus `extra` (which wins). */
export function siteEnvironment(base: NodeJS.ProcessEnv, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined || isSecretVariable(name) || NPM_CONTEXT.some((p) => p.test(name))) continue;
    out[name] = value;
  }
  // Dev servers that open a browser or print colour codes make their logs harder to read for the agent.
  return { ...out, BROWSER: 'none', NO_COLOR: '1', FORCE_COLOR: '0', ...extra };
}

/**
 * A bring-your-own agent is the user's program and may need its own model key, so it keeps the
 * environment except the harness's own IWB_ settings (the dataset path would lead it to the gold text).
 */
export function agentEnvironment(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) {
    if (value !== undefined && !/^IWB_/i.test(name)) out[name] = value;
  }
  return out;
}
