import { rawProcessEnv } from '../config/process-env.js';

/**
 * Environments of untrusted processes (a `command:` agent, an agent-built site's npm processes), built
 * from an allowlist rather than by removing known secrets: a key under a name nobody thought of
 * (`MY_LLM_KEY`, `AWS_SESSION`) must not reach agent-written code either.
 */

/** What every untrusted process keeps from the harness's environment: where programs are, and the locale. */
const KEPT = [/^PATH$/, /^LANG$/, /^LANGUAGE$/, /^LC_[A-Z_]+$/, /^TZ$/, /^TERM$/];

/** Inside the sandbox, home and temporary files live in the private /tmp. */
export const SANDBOX_HOME = '/tmp/home';

function pick(base: NodeJS.ProcessEnv, keep: (name: string) => boolean): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value !== undefined && keep(name)) out[name] = value;
  }
  return out;
}

/**
 * A `command:` agent's environment: the allowlist plus the variables the user named in IWB_AGENT_ENV
 * (its own model key, say). Names the harness reads itself (IWB_*) are refused even when named, so the
 * dataset path and the judge's settings never reach the agent.
 */
export function agentEnvironment(base: NodeJS.ProcessEnv = rawProcessEnv(), passNames: readonly string[] = []): Record<string, string> {
  const named = new Set(passNames.filter((n) => !/^IWB_/i.test(n)));
  return {
    ...pick(base, (n) => KEPT.some((p) => p.test(n)) || named.has(n)),
    HOME: SANDBOX_HOME,
    TMPDIR: '/tmp',
  };
}

/**
 * An agent-built site's environment: the allowlist only, never a user-named key (the site is code the
 * model wrote, and the browser-facing server needs no credentials), plus `extra` (PORT, HOST), which wins.
 */
export function siteEnvironment(base: NodeJS.ProcessEnv = rawProcessEnv(), extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...pick(base, (n) => KEPT.some((p) => p.test(n))),
    HOME: SANDBOX_HOME,
    TMPDIR: '/tmp',
    // npm's cache goes to the private /tmp: the harness user's cache (and any token in ~/.npmrc) stays out of reach.
    npm_config_cache: '/tmp/npm-cache',
    npm_config_update_notifier: 'false',
    // Dev servers that open a browser or print colour codes make their logs harder to read for the agent.
    BROWSER: 'none',
    NO_COLOR: '1',
    FORCE_COLOR: '0',
    ...extra,
  };
}

/** Parses IWB_AGENT_ENV: variable names separated by commas or spaces. */
export function parseAgentEnvNames(value: string | undefined): string[] {
  const names = (value ?? '').split(/[\s,]+/).filter(Boolean);
  for (const n of names) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(n)) throw new Error(`IWB_AGENT_ENV: "${n}" is not a variable name; give names separated by commas, e.g. IWB_AGENT_ENV=MY_MODEL_KEY,MY_BASE_URL`);
    if (/^IWB_/i.test(n)) throw new Error(`IWB_AGENT_ENV: "${n}" is a harness setting and is never passed to the agent`);
  }
  return names;
}
