import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnGroup, type GroupProcess } from './process-group.js';
import { detectIsolation, freshSandboxUid, type Detected } from './detect.js';
import { SANDBOX_HOME } from './env.js';
import { hiddenPaths, type Hidden } from './exposures.js';
import { wrapArgv, type Exposure, type Isolation, type ResourceLimits } from './policy.js';
import { reap } from './reap.js';
import { endpointKey, isLoopback, type AgentNetwork, type Endpoint } from './endpoints.js';
import { INNER_EGRESS, openEgress, type Egress } from './egress.js';

/**
 * The one way the harness starts a process it does not trust (a `command:` agent, a site's npm
 * install, dev, build or start): in the isolation the machine allows, with resource bounds, an
 * allowlisted environment and only the exposed paths in view. Refuses when no isolation is available
 * and the user did not accept running unconfined.
 */

export interface SandboxConfig {
  /** Variables named in IWB_AGENT_ENV, passed to a `command:` agent (its own model key). */
  agentEnv: string[];
  /** IWB_UNSAFE_NO_SANDBOX=1: run unconfined where no isolation is available. */
  unsafe: boolean;
  /** Paths no exposure may reveal; see exposures.ts. */
  hidden: Hidden;
  /** What a `command:` agent's network reaches (sandbox/endpoints.ts); endpoints its environment names are added. */
  agentNetwork: AgentNetwork;
}

export interface SandboxMeta {
  isolation: Isolation | 'refused';
  detail: string;
}

export class SandboxUnavailable extends Error {
  override name = 'SandboxUnavailable';
}

export interface SandboxedSpawn {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  exposures: Exposure[];
  network: boolean;
  /**
   * With `network`: the only host:port pairs it reaches, through a relay (sandbox/egress.ts), when the
   * sandbox has a network namespace. Without it, `network` is the host's network.
   */
  egress?: Endpoint[];
  limits: ResourceLimits;
  stdin?: 'ignore' | 'pipe';
  keepBytes?: number;
  onStdout?: (chunk: string) => void;
}

export interface SandboxedProcess extends GroupProcess {
  /** host:port pairs the process asked for and was refused (an agent behind an egress relay). */
  refusedEgress(): string[];
}

/** The port of the HTTP proxy inside an agent's sandbox: 3128 (Squid's), or the next one an endpoint does not use. */
export function proxyPort(endpoints: readonly Endpoint[]): number {
  let port = 3128;
  while (endpoints.some((e) => isLoopback(e.host) && e.port === port)) port++;
  return port;
}

export class Sandbox {
  constructor(
    readonly detected: Detected,
    readonly config: SandboxConfig,
  ) {}

  /** Whether a server it runs has a network namespace of its own, reachable only through a PortBridge. */
  get ownNetwork(): boolean {
    return this.detected.isolation === 'bwrap';
  }

  /** Whether its processes run as a uid other than the harness's (a root harness with bwrap or the user fallback). */
  get separateUser(): boolean {
    const d = this.detected;
    return d.isolation !== 'refused' && d.isolation !== 'none' && d.root;
  }

  meta(): SandboxMeta {
    return { isolation: this.detected.isolation, detail: this.detected.detail };
  }

  async spawn(spec: SandboxedSpawn): Promise<SandboxedProcess> {
    const d = this.detected;
    if (d.isolation === 'refused') throw new SandboxUnavailable(d.detail);
    const egress = spec.network && spec.egress && d.isolation === 'bwrap' ? await openEgress(spec.egress) : undefined;
    if (egress && spec.egress) spec = relayed(spec, egress, spec.egress);
    const uid = this.separateUser ? freshSandboxUid() : undefined;
    if (uid !== undefined) {
      for (const e of spec.exposures) if (e.writable) await chownTree(e.path, uid);
    }
    const env = { ...spec.env };
    // Scratch space of the harness's: the passwd file naming the uid (npm and os.userInfo() look it up),
    // and, without namespaces, the home that stands in for the private /tmp.
    const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-sandbox-'));
    const overlays: { source: string; dest: string }[] = [];
    if (d.isolation === 'bwrap' && uid !== undefined) {
      overlays.push(await withLine(scratch, '/etc/passwd', `sandbox:x:${uid}:${uid}:sandbox:${SANDBOX_HOME}:/bin/sh`));
      overlays.push(await withLine(scratch, '/etc/group', `sandbox:x:${uid}:`));
    }
    if (d.isolation !== 'bwrap') {
      const home = path.join(scratch, 'home');
      await fs.mkdir(home);
      if (uid !== undefined) {
        await fs.chmod(scratch, 0o711);
        await fs.chown(home, uid, uid);
      }
      Object.assign(env, { HOME: home, TMPDIR: home, npm_config_cache: path.join(home, '.npm') });
    }
    const mark = `iwb-${process.pid}-${Math.random().toString(36).slice(2)}`;
    env.SANDBOX_EPISODE_MARK = mark;
    const argv = wrapArgv(
      { isolation: d.isolation, ...(uid !== undefined ? { uid } : {}) },
      { argv: spec.argv, cwd: spec.cwd, exposures: spec.exposures, network: spec.network, limits: spec.limits, overlays },
    );
    const proc = spawnGroup(argv[0]!, argv.slice(1), {
      cwd: d.isolation === 'bwrap' ? '/' : spec.cwd,
      env,
      ...(spec.stdin ? { stdin: spec.stdin } : {}),
      ...(spec.keepBytes ? { keepBytes: spec.keepBytes } : {}),
      ...(spec.onStdout ? { onStdout: spec.onStdout } : {}),
    });
    const kill = proc.kill.bind(proc);
    return {
      ...proc,
      hasExited: () => proc.hasExited(),
      refusedEgress: () => egress?.refused() ?? [],
      async kill(graceMs?: number) {
        await kill(graceMs);
        await egress?.close();
        // Without a PID namespace a setsid daemon leaves the process group: its uid (as root) or the
        // mark in its environment finds it.
        if (d.isolation !== 'bwrap') await reap(uid, mark);
        await fs.rm(scratch, { recursive: true, force: true }).catch(() => undefined);
      },
    };
  }
}

/** The spawn behind an egress relay: no network of its own, the relay started first, proxy variables pointing at it. */
function relayed(spec: SandboxedSpawn, egress: Egress, endpoints: readonly Endpoint[]): SandboxedSpawn {
  const port = proxyPort(endpoints);
  const loopback = endpoints.filter((e) => isLoopback(e.host)).map(endpointKey);
  const proxy = `http://127.0.0.1:${port}`;
  return {
    ...spec,
    network: false,
    argv: [process.execPath, INNER_EGRESS, egress.socketPath, String(port), loopback.join(',') || '-', '--', ...spec.argv],
    exposures: [...spec.exposures, { path: egress.dir, writable: false }, { path: INNER_EGRESS, writable: false }],
    env: { ...spec.env, HTTP_PROXY: proxy, HTTPS_PROXY: proxy, http_proxy: proxy, https_proxy: proxy },
  };
}

/** A copy of a system file with one line added, to lay over the original inside the sandbox. */
async function withLine(dir: string, file: string, line: string): Promise<{ source: string; dest: string }> {
  const text = await fs.readFile(file, 'utf8').catch(() => '');
  const source = path.join(dir, path.basename(file));
  await fs.writeFile(source, `${text.trimEnd()}\n${line}\n`, { mode: 0o644 });
  return { source, dest: file };
}

/** Hands a writable exposure to the sandbox user; the harness, as root, keeps reading and deleting it. */
async function chownTree(root: string, uid: number): Promise<void> {
  const walk = async (p: string): Promise<void> => {
    const st = await fs.lstat(p).catch(() => null);
    if (!st) return;
    if (st.uid !== uid) await fs.lchown(p, uid, uid).catch(() => undefined);
    if (st.isDirectory()) for (const name of await fs.readdir(p).catch(() => [])) await walk(path.join(p, name));
  };
  await walk(root);
}

let config: SandboxConfig = { agentEnv: [], unsafe: false, agentNetwork: { mode: 'allowlist', endpoints: [] }, hidden: hiddenPaths([], [process.cwd(), os.homedir(), os.tmpdir()]) };
let current: Sandbox | undefined;

/**
 * Set once at start from the typed settings (fixtures/runtime.ts). The isolation is detected on first use,
 * not here: detecting spawns bubblewrap (about 120 ms), and most workers, restarted after a failed slot
 * with their episode cached and a static site, never start an untrusted process.
 */
export function configureSandbox(next: Partial<SandboxConfig>): void {
  config = { ...config, ...next };
  current = undefined;
}

/** The process's sandbox; detected on first use with the defaults when nothing was configured. */
export function getSandbox(): Sandbox {
  current ??= new Sandbox(detectIsolation({ unsafe: config.unsafe }), config);
  return current;
}
