import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { AGENT_LIMITS, wrapArgv, type Isolation } from './policy.js';

/**
 * Which isolation this machine allows, found once by trying it: bubblewrap needs user namespaces
 * (some containers and hardened kernels refuse them), the separate user needs root.
 */

/**
 * Untrusted processes of a root harness run as a uid of their own from this range, unused by Debian's
 * accounts (which end at 65534 for nobody): a fresh one per sandbox.
 */
export const SANDBOX_UIDS = { first: 200_000, count: 800_000 };

export function freshSandboxUid(): number {
  return SANDBOX_UIDS.first + Math.floor(Math.random() * SANDBOX_UIDS.count);
}

export type Detected =
  | { isolation: Isolation; root: boolean; detail: string }
  | { isolation: 'refused'; detail: string };

const EXPOSED_AS_USER =
  'bubblewrap could not run here, so agent and site processes run as a fresh unprivileged uid with an allowlisted ' +
  'environment and resource limits, but without their own namespaces: they can read every world-readable file ' +
  '(the dataset, tasks/*/task.json, other cases\u2019 workspaces), reach the network and other local ports, ' +
  'and see (not read) other processes';

const EXPOSED_UNSAFE =
  'IWB_UNSAFE_NO_SANDBOX=1: agent and site processes run as the harness\u2019s own user with an allowlisted ' +
  'environment; they can read every file you can (gold data, other cases, key files), reach the network and ' +
  'other local ports, and signal or inspect your processes';

function tryRun(argv: string[]): { ok: boolean; why: string } {
  const r = spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8', timeout: 10_000, env: { PATH: '/usr/bin:/bin' }, cwd: '/' });
  if (r.error) return { ok: false, why: r.error.message };
  return { ok: r.status === 0, why: (r.stderr || `exit ${r.status}`).trim().split('\n')[0] ?? '' };
}

export function detectIsolation(opts: { unsafe: boolean; root?: boolean }): Detected {
  const root = opts.root ?? process.getuid?.() === 0;
  const uid = root ? freshSandboxUid() : undefined;
  const probe = { argv: ['/bin/true'], cwd: '/', exposures: [], network: false, limits: AGENT_LIMITS };
  const bwrap = tryRun(wrapArgv({ isolation: 'bwrap', ...(uid !== undefined ? { uid } : {}) }, probe));
  if (bwrap.ok) {
    return {
      isolation: 'bwrap',
      root,
      detail: `bubblewrap: own PID, mount, IPC and (for servers) network namespaces, allowlisted binds, ${root ? 'a fresh unprivileged uid per sandbox' : 'a user namespace'}, prlimit bounds`,
    };
  }
  if (root && existsSync('/usr/bin/setpriv') && tryRun(wrapArgv({ isolation: 'user', uid: freshSandboxUid() }, probe)).ok) {
    return { isolation: 'user', root, detail: `${EXPOSED_AS_USER} (bubblewrap: ${bwrap.why})` };
  }
  if (opts.unsafe) return { isolation: 'none', root, detail: `${EXPOSED_UNSAFE} (bubblewrap: ${bwrap.why})` };
  return {
    isolation: 'refused',
    detail:
      `untrusted agent and site processes need a sandbox, and none is available: bubblewrap failed (${bwrap.why})` +
      (root ? '' : ' and the separate-user fallback needs root') +
      '. Install bubblewrap (Debian: apt-get install bubblewrap) and allow user namespaces, run as root, or set ' +
      'IWB_UNSAFE_NO_SANDBOX=1 to run them unconfined as your own user (they can then read your files and keys).',
  };
}
