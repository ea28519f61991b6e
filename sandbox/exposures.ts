import { readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { inside, SYSTEM_DIRS } from './policy.js';

/**
 * Which host paths a `command:` agent sees besides the system: the folder of the program its command
 * line names (so `node examples/echo-agent.mjs` finds its script and its node_modules), and nothing
 * else of the host. Every path is judged by its real path, the one bubblewrap mounts: a symlink to the
 * project named on the command line is the project. A folder is refused when it holds something hidden
 * (the run folder, the dataset, tasks/), is a home, /tmp or an ancestor of one, or looks like a checkout
 * of this project (task files a level or two down); its program file alone is exposed then.
 */

/**
 * What must stay out of sight: `trees` entirely (the run folder, the dataset, tasks/), `wholes` as a
 * whole (the project root, which holds the harness's config, the home folder, the temporary folder),
 * though a folder inside one of them (examples/) may be exposed. Real paths (hiddenPaths() makes them).
 */
export interface Hidden {
  trees: string[];
  wholes: string[];
}

/** A path as the kernel resolves it; a path that does not exist (yet) is resolved as far as it does. */
export function realPath(p: string): string {
  const full = path.resolve(p);
  try {
    return realpathSync(full);
  } catch {
    const parent = path.dirname(full);
    return parent === full ? full : path.join(realPath(parent), path.basename(full));
  }
}

/** `hidden` with every entry (and, for safety, its spelling as given) in real-path form. */
export function hiddenPaths(trees: readonly string[], wholes: readonly string[]): Hidden {
  const both = (ps: readonly string[]) => [...new Set(ps.flatMap((p) => [path.resolve(p), realPath(p)]))];
  return { trees: both(trees), wholes: both(wholes) };
}

/** True when exposing `dir` would expose something hidden. */
export function revealsHidden(dir: string, hidden: Hidden): boolean {
  if (dir === path.parse(dir).root) return true;
  return hidden.trees.some((h) => inside(h, dir) || inside(dir, h)) || hidden.wholes.some((w) => inside(w, dir));
}

const entries = (dir: string): string[] => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};
const isFile = (p: string): boolean => {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
};

/**
 * A checkout of this project, or any collection of tasks: task.json files here, one or two levels down.
 * A repository as such is not refused: an agent's own program is often one.
 */
export function looksLikeCheckout(dir: string): boolean {
  const names = entries(dir);
  if (names.includes('task.json')) return true;
  if (names.includes('tasks') && entries(path.join(dir, 'tasks')).some((t) => isFile(path.join(dir, 'tasks', t, 'task.json')))) return true;
  return names.some((n) => isFile(path.join(dir, n, 'task.json')));
}

/** Words of a shell command line that look like paths (quotes dropped; options and variables skipped). */
function pathWords(command: string): string[] {
  return command
    .split(/\s+/)
    .map((w) => w.replace(/^['"]|['"]$/g, ''))
    .filter((w) => w !== '' && !w.startsWith('-') && !w.includes('=') && !w.startsWith('$'));
}

/** A host path exposed read-only at its real path; `alias` links the name the command line uses to it, when that differs. */
export interface ProgramPath {
  path: string;
  alias?: Alias;
}

/** A symlink made inside the sandbox at `at`, pointing to `to`. */
export interface Alias {
  at: string;
  to: string;
}

/** How the command line's name reaches what is mounted, when a link stands in the way. */
function aliasFor(named: string, real: string, isDir: boolean, exposed: string): Alias | undefined {
  if (real === named) return undefined;
  if (isDir) return { at: named, to: real };
  // A folder on the way is the link: the folder as named links to the folder mounted.
  if (exposed !== real && realPath(path.dirname(named)) === path.dirname(real)) return { at: path.dirname(named), to: exposed };
  return { at: named, to: real };
}

export function agentProgramPaths(command: string, cwd: string, hidden: Hidden): ProgramPath[] {
  const out = new Map<string, ProgramPath>();
  const inSystem = (p: string) => SYSTEM_DIRS.some((d) => inside(p, d));
  for (const word of pathWords(command)) {
    const named = path.resolve(cwd, word);
    if (inSystem(named)) continue;
    const stat = statSync(named, { throwIfNoEntry: false });
    if (!stat) continue;
    const real = realPath(named);
    if (inSystem(real)) continue;
    const dir = stat.isDirectory() ? real : path.dirname(real);
    const refused = revealsHidden(dir, hidden) || looksLikeCheckout(dir);
    const exposed = !refused ? dir : stat.isFile() && !hidden.trees.some((h) => inside(real, h)) ? real : undefined;
    if (!exposed) continue;
    // Named through a link: the real path is mounted, and the name on the command line links to it.
    const alias = aliasFor(named, real, stat.isDirectory(), exposed);
    out.set(`${exposed}\0${alias?.at ?? ''}`, { path: exposed, ...(alias ? { alias } : {}) });
  }
  // A folder inside another exposed one adds nothing (unless it is named by a link of its own).
  const all = [...out.values()];
  return all.filter((p) => p.alias !== undefined || !all.some((q) => q.path !== p.path && inside(p.path, q.path)));
}
