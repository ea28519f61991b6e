import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { revealsHidden, type Hidden } from './exposures.js';
import { SYSTEM_DIRS } from './policy.js';

/**
 * What a `command:` agent's interpreter needs beyond the folder of its program: a virtualenv's
 * `bin/python` is a symlink to an interpreter elsewhere (pyenv's `~/.pyenv/versions/3.12.1/bin/python3.12`,
 * `/usr/local/bin/python3`), and the venv's own root holds `pyvenv.cfg` and `lib/…/site-packages`. Without
 * them the shell inside the sandbox says `/tmp/v/bin/python: not found`. These paths are mounted read-only
 * and are not hashed into the episode key (an interpreter is not the agent's program).
 */
export function interpreterPaths(command: string, cwd: string, hidden: Hidden): string[] {
  const out = new Set<string>();
  const words = command.split(/\s+/).map((w) => w.replace(/^['"]|['"]$/g, '')).filter((w) => w.includes('/') && !w.startsWith('-') && !w.includes('='));
  for (const word of words) {
    const full = path.resolve(cwd, word);
    if (!statSync(full, { throwIfNoEntry: false })?.isFile()) continue;
    const venv = venvRoot(full);
    if (venv) out.add(venv);
    const real = realpathOrSelf(full);
    if (real !== full) {
      const prefix = installPrefix(real);
      if (prefix) out.add(prefix);
      const realVenv = venvRoot(real);
      if (realVenv) out.add(realVenv);
    }
  }
  const all = [...out].filter((p) => !SYSTEM_DIRS.some((d) => p === d || p.startsWith(d + '/')) && !revealsHidden(p, hidden));
  return all.filter((p) => !all.some((q) => q !== p && p.startsWith(q + '/')));
}

/** `/tmp/v` for `/tmp/v/bin/python` when `/tmp/v/pyvenv.cfg` marks a virtualenv. */
function venvRoot(file: string): string | undefined {
  const bin = path.dirname(file);
  if (path.basename(bin) !== 'bin') return undefined;
  const root = path.dirname(bin);
  return existsSync(path.join(root, 'pyvenv.cfg')) ? root : undefined;
}

/** The installation an interpreter belongs to (`X` for `X/bin/python3`), so its `lib/` comes along. */
function installPrefix(real: string): string | undefined {
  if (SYSTEM_DIRS.some((d) => real.startsWith(d + '/'))) return undefined;
  const bin = path.dirname(real);
  const prefix = path.basename(bin) === 'bin' ? path.dirname(bin) : bin;
  return prefix === '/' ? undefined : prefix;
}

function realpathOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}
