import { promises as fs } from 'node:fs';
import path from 'node:path';

/**
 * Files and bytes under `root` (links counted as files, not followed), skipping folders `skip` names.
 * A `root` that is itself a link counts as nothing here: its parent's walk counts it as one file.
 */
export async function treeUsage(root: string, skip: (rel: string) => boolean = () => false): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  if ((await fs.lstat(root).catch(() => null))?.isSymbolicLink()) return { files, bytes };
  const walk = async (dir: string): Promise<void> => {
    for (const e of await fs.readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (!skip(path.relative(root, full).split(path.sep).join('/'))) await walk(full);
      } else {
        files++;
        bytes += (await fs.lstat(full).catch(() => null))?.size ?? 0;
      }
    }
  };
  await walk(root);
  return { files, bytes };
}
