import { existsSync, lstatSync, readlinkSync } from 'node:fs';
import path from 'node:path';

/**
 * How an untrusted process is started, as a pure function of the isolation available and what the
 * process may see: the argv that wraps it in bubblewrap (or a separate user), and prlimit's bounds.
 * Kept apart from the spawning so the policy can be read, and tested, as one list of arguments.
 */

/** `bwrap`: own PID, user, IPC and (for servers) network namespace, a filesystem of allowlisted binds.
 *  `user`: no namespaces; a separate unprivileged uid and the resource limits (the fallback as root).
 *  `none`: the harness's own user with an allowlisted environment (IWB_UNSAFE_NO_SANDBOX=1 only). */
export type Isolation = 'bwrap' | 'user' | 'none';

export interface ResourceLimits {
  /** CPU time per process (RLIMIT_CPU): a spinning process gets SIGXCPU, then SIGKILL. */
  cpuSeconds: number;
  /**
   * Writable private memory per process (RLIMIT_DATA): what a process really allocates. Not RLIMIT_AS: V8
   * reserves ~10 GiB of inaccessible address space per WebAssembly memory, so an address-space limit broke
   * every tool that runs wasm (Vite's parser answered HTTP 500 for every module).
   */
  memoryBytes: number;
  /** Processes and threads of the sandbox (RLIMIT_NPROC, counted inside its own user namespace). */
  processes: number;
  /** Largest file a process may write (RLIMIT_FSIZE). */
  fileBytes: number;
  /** Size of the private /tmp (a tmpfs, so it also bounds memory spent there). */
  tmpBytes: number;
}

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

export const AGENT_LIMITS: ResourceLimits = { cpuSeconds: 900, memoryBytes: 4 * GiB, processes: 256, fileBytes: 256 * MiB, tmpBytes: 512 * MiB };
/** Dev servers run esbuild or SWC next to Node, and npm install unpacks big packages: a little more room. */
export const SITE_LIMITS: ResourceLimits = { cpuSeconds: 900, memoryBytes: 6 * GiB, processes: 512, fileBytes: 256 * MiB, tmpBytes: 1 * GiB };

/** A host path the process may see, at the same path (a real path: bubblewrap follows links). */
export interface Exposure {
  path: string;
  writable: boolean;
  /** A link made inside to it, when the process names it by another path (a symlink on the host). */
  alias?: { at: string; to: string };
}

export interface JailSpec {
  argv: string[];
  cwd: string;
  exposures: Exposure[];
  network: boolean;
  limits: ResourceLimits;
  /** Host files laid over paths inside (the /etc/passwd that names the sandbox's uid). */
  overlays?: { source: string; dest: string }[];
}

export interface HostSpec {
  isolation: Isolation;
  /**
   * The uid (and gid) untrusted processes run as when the harness is root: one of their own per
   * sandbox, so the process limit counts that sandbox's processes only and no two sandboxes share
   * files. Undefined for a non-root harness, whose bubblewrap maps its own uid into a user namespace.
   */
  uid?: number;
}

/** System folders every sandbox sees read-only: programs, libraries, /etc (resolver, certificates for npm). */
export const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc'];

export const PRLIMIT = '/usr/bin/prlimit';

export function prlimitArgs(limits: ResourceLimits): string[] {
  // Plain byte counts: util-linux 2.38's prlimit crashes on size suffixes such as 4G.
  return [
    PRLIMIT,
    `--cpu=${limits.cpuSeconds}`,
    `--data=${limits.memoryBytes}`,
    `--nproc=${limits.processes}`,
    `--fsize=${limits.fileBytes}`,
    '--core=0',
    '--',
  ];
}

function systemMounts(extraReadOnly: readonly string[]): string[] {
  const args: string[] = [];
  for (const dir of SYSTEM_DIRS) {
    const stat = lstatSync(dir, { throwIfNoEntry: false });
    if (!stat) continue;
    // Debian's merged /usr: /bin is a link to usr/bin, and must stay a link for #! lines to resolve.
    if (stat.isSymbolicLink()) args.push('--symlink', readlinkSync(dir), dir);
    else args.push('--ro-bind', dir, dir);
  }
  for (const p of extraReadOnly) if (existsSync(p)) args.push('--ro-bind', p, p);
  return args;
}

/**
 * The node binary and its installation when they live outside /usr (nvm, a tarball in /opt): an
 * agent written in Node and the site's npm must run inside. Never a folder that holds the harness.
 */
export function runtimeDirs(execPath: string): string[] {
  if (SYSTEM_DIRS.some((d) => execPath.startsWith(d + '/'))) return [];
  const prefix = path.dirname(path.dirname(execPath));
  return prefix === '/' ? [execPath] : [prefix];
}

/** `child` is `parent` or lies within it (both absolute and normalised). */
export function inside(child: string, parent: string): boolean {
  return child === parent || child.startsWith(parent.endsWith('/') ? parent : parent + '/');
}

function depth(p: string): number {
  return p.split('/').length;
}

/** `/a`, `/a/b` for `/a/b/c`. */
function ancestors(p: string): string[] {
  const parts = path.resolve(p).split('/').filter(Boolean);
  return parts.slice(0, -1).map((_, i) => '/' + parts.slice(0, i + 1).join('/'));
}

/** Switches from root to the sandbox's uid for good: no capabilities left, none to be regained. */
export function setprivArgs(uid: number): string[] {
  return ['/usr/bin/setpriv', `--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', '--inh-caps=-all', '--bounding-set=-all', '--no-new-privs', '--'];
}

/** The full argv (file first) that runs `jail.argv` under the given isolation. */
export function wrapArgv(host: HostSpec, jail: JailSpec, extraReadOnly: readonly string[] = runtimeDirs(process.execPath)): string[] {
  // prlimit runs inside any namespace, so the process count is charged where the sandbox's processes are.
  const inner = [...(host.uid === undefined ? [] : setprivArgs(host.uid)), ...prlimitArgs(jail.limits), ...jail.argv];
  if (host.isolation !== 'bwrap') return inner;
  const args = [
    'bwrap',
    // As root, bubblewrap sets up the namespaces itself and setpriv drops to the sandbox's uid inside;
    // otherwise a user namespace maps the harness's own uid.
    ...(host.uid === undefined ? ['--unshare-user', '--disable-userns'] : []),
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    ...(jail.network ? [] : ['--unshare-net']),
    // The sandbox dies with the harness; its PID namespace (and every daemon in it) with its first process.
    '--die-with-parent',
    '--new-session',
    '--proc', '/proc',
    '--dev', '/dev',
    '--size', String(jail.limits.tmpBytes), '--tmpfs', '/tmp',
    ...systemMounts(extraReadOnly),
    '--dir', '/tmp/home',
  ];
  // Mount points bubblewrap makes on its own are 0700 when it runs as root: the sandbox's uid could not
  // reach its exposures through them. Every folder on the way is made first, readable, outermost first.
  const exposures = [...jail.exposures].sort((a, b) => depth(a.path) - depth(b.path));
  const aliases = exposures.flatMap((e) => (e.alias ? [e.alias] : []));
  const targets = [...exposures.map((e) => e.path), ...aliases.map((a) => a.at), jail.cwd];
  const onTheWay = [...new Set(targets.flatMap(ancestors))]
    .filter((d) => !SYSTEM_DIRS.some((s) => d === s || d.startsWith(s + '/')) && !exposures.some((e) => e.path === d))
    .sort((a, b) => depth(a) - depth(b));
  for (const d of onTheWay) args.push('--perms', '0755', '--dir', d);
  for (const o of jail.overlays ?? []) args.push('--ro-bind', o.source, o.dest);
  for (const e of exposures) args.push(e.writable ? '--bind' : '--ro-bind', e.path, e.path);
  // An alias never replaces a folder the sandbox needs (its working folder, the way to an exposure).
  for (const a of aliases) if (!targets.some((t) => t !== a.at && inside(t, a.at)) && a.at !== jail.cwd) args.push('--symlink', a.to, a.at);
  if (!exposures.some((e) => e.path === jail.cwd)) args.push('--perms', '0755', '--dir', jail.cwd);
  if (host.uid !== undefined) args.push('--chmod', '1777', '/tmp', '--chmod', '0777', '/tmp/home');
  args.push('--chdir', jail.cwd, '--', ...inner);
  return args;
}
