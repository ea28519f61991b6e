import { statSync } from 'node:fs';
import path from 'node:path';
import { SYSTEM_DIRS } from './policy.js';

/**
 * Which host paths a `command:` agent sees besides the system: the folder of the program its command
 * line names (so `node examples/echo-agent.mjs` finds its script and its node_modules), never a folder
 * that holds something hidden (the project root with tasks/ and config, the run folder, the dataset).
 * A program at the project root is exposed as that one file.
 */

function inside(child: string, parent: string): boolean {
  return child === parent || child.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep);
}

/**
 * What must stay out of sight: `trees` entirely (the run folder, the dataset, tasks/), `wholes` as a
 * whole (the project root, which holds the harness's config, and the home folder), though a folder
 * inside one of them (examples/) may be exposed.
 */
export interface Hidden {
  trees: string[];
  wholes: string[];
}

/** True when exposing `dir` would expose something hidden. */
export function revealsHidden(dir: string, hidden: Hidden): boolean {
  if (dir === path.parse(dir).root) return true;
  return hidden.trees.some((h) => inside(h, dir) || inside(dir, h)) || hidden.wholes.some((w) => inside(w, dir));
}

/** Words of a shell command line that look like paths (quotes dropped; options and variables skipped). */
function pathWords(command: string): string[] {
  return command
    .split(/\s+/)
    .map((w) => w.replace(/^['"]|['"]$/g, ''))
    .filter((w) => w !== '' && !w.startsWith('-') && !w.includes('=') && !w.startsWith('$'));
}

export function agentProgramPaths(command: string, cwd: string, hidden: Hidden): string[] {
  const out = new Set<string>();
  for (const word of pathWords(command)) {
    const full = path.resolve(cwd, word);
    if (SYSTEM_DIRS.some((d) => inside(full, d))) continue;
    const stat = statSync(full, { throwIfNoEntry: false });
    if (!stat) continue;
    const dir = stat.isDirectory() ? full : path.dirname(full);
    if (!revealsHidden(dir, hidden)) out.add(dir);
    else if (stat.isFile() && !hidden.trees.some((h) => inside(full, h))) out.add(full);
  }
  // A folder inside another exposed one adds nothing.
  const all = [...out];
  return all.filter((p) => !all.some((q) => q !== p && inside(p, q)));
}
