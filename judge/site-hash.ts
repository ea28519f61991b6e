import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';

const MAX_BYTES = 64 * 1024 * 1024;

/**
 * A content hash of a served folder: the same files give the same hash wherever the folder lives, so a
 * verdict is reused for an identical submission (a rerun, or two agents that wrote the same site).
 * Paths are part of the hash, so renaming a page is a different site.
 */
export async function hashSite(root: string): Promise<string> {
  const files: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = await fs.readdir(dir, { withFileTypes: true });
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) await walk(full);
      else if (e.isFile()) files.push(full);
    }
  };
  await walk(root);
  files.sort();
  const h = createHash('sha256');
  let total = 0;
  for (const f of files) {
    const body = await fs.readFile(f);
    total += body.length;
    if (total > MAX_BYTES) throw new Error(`site folder ${root} holds more than ${MAX_BYTES} bytes; refusing to hash it`);
    h.update(path.relative(root, f).split(path.sep).join('/')).update('\0').update(String(body.length)).update('\0').update(body);
  }
  return h.digest('hex');
}
