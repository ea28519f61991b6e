import { randomBytes } from 'node:crypto';
import { constants as C, existsSync, promises as fs, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';

/**
 * Writes and deletes below a folder that untrusted processes can change (the workspace), made as root.
 * Every path is walked one component at a time from an opened directory with O_NOFOLLOW, and each step
 * names the next one relative to the directory already open (`/proc/self/fd/<fd>/<name>`, openat's
 * semantics without a native binding): a folder swapped for a link between a check and a write is
 * refused, never followed. Files are written to a fresh name and renamed into place, so no existing
 * inode (a hard link the agent planted) is ever written into. Without /proc (macOS) the same walk runs
 * on path strings: links are still refused, but not against a concurrent swapper.
 */

/** An agent-caused refusal: the message is for the agent's observation. */
export class RefusedPath extends Error {
  override name = 'RefusedPath';
}

/** Errors the agent cannot cause: the harness's disk, descriptors or memory. They make a case errored. */
const HARNESS_FAULTS = new Set(['ENOSPC', 'EDQUOT', 'EIO', 'EROFS', 'EMFILE', 'ENFILE', 'ENOMEM']);

export function isHarnessFault(e: unknown): boolean {
  return e instanceof Error && 'code' in e && typeof e.code === 'string' && HARNESS_FAULTS.has(e.code);
}

/**
 * Runs one write or delete; what the agent's input caused (a refusal, a bad path, any other file-system
 * error) comes back as the message for its observation. Only a fault of the harness's side is thrown.
 */
export async function agentCaused(op: () => Promise<unknown>): Promise<string | null> {
  try {
    await op();
    return null;
  } catch (e) {
    if (e instanceof RefusedPath) return e.message;
    // A Node ERR_ code is a harness bug, not something the agent wrote.
    if (isHarnessFault(e) || !(e instanceof Error) || !('code' in e) || String(e.code).startsWith('ERR_')) throw e;
    return e.message.replace(/\/proc\/self\/fd\/\d+\//g, '');
  }
}

/** Whether an open descriptor can be named as a path (/proc/self/fd/<fd>), the basis of the no-follow walk. */
export const PROC_FD = process.platform === 'linux' && existsSync('/proc/self/fd');
const DIR_FLAGS = C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW;

/** An open directory: its descriptor, and the string path used where /proc is missing. */
interface Dir {
  handle: FileHandle;
  path: string;
}

const at = (dir: Dir, name: string): string => (PROC_FD ? `/proc/self/fd/${dir.handle.fd}/${name}` : path.join(dir.path, name));

export class ConfinedDir {
  constructor(readonly root: string) {}

  /** The entry's own stat (a link is reported as a link), or null when any step to it is missing. */
  async lstat(parts: readonly string[]): Promise<Stats | null> {
    const dir = await this.walk(parts.slice(0, -1), false).catch((e: unknown) => (isMissing(e) ? null : Promise.reject(e)));
    if (!dir) return null;
    try {
      return await fs.lstat(at(dir, parts[parts.length - 1]!)).catch((e: unknown) => (isMissing(e) ? null : Promise.reject(e)));
    } finally {
      await dir.handle.close();
    }
  }

  /** Writes a file, making the folders on the way; refuses links and non-folders on the way, and a link or folder at the end. */
  async writeFile(parts: readonly string[], content: string): Promise<void> {
    const dir = await this.walk(parts.slice(0, -1), true);
    const name = parts[parts.length - 1]!;
    const temp = `.iwb-write-${randomBytes(6).toString('hex')}`;
    try {
      const existing = await fs.lstat(at(dir, name)).catch(() => null);
      if (existing?.isSymbolicLink()) throw new RefusedPath(`"${name}" is a symbolic link; writes through links are refused`);
      if (existing?.isDirectory()) throw new RefusedPath(`"${name}" is a folder, not a file`);
      const file = await fs.open(at(dir, temp), C.O_WRONLY | C.O_CREAT | C.O_EXCL | C.O_NOFOLLOW, 0o644);
      try {
        await file.writeFile(content);
      } finally {
        await file.close();
      }
      // rename replaces whatever entry holds the name (a link swapped in meanwhile included) without following it.
      await fs.rename(at(dir, temp), at(dir, name));
    } catch (e) {
      await fs.unlink(at(dir, temp)).catch(() => undefined);
      throw e;
    } finally {
      await dir.handle.close();
    }
  }

  /** Deletes a file, link or folder tree; never crosses a link (a link is removed, not followed). False when absent. */
  async remove(parts: readonly string[]): Promise<boolean> {
    const dir = await this.walk(parts.slice(0, -1), false).catch((e: unknown) => (isMissing(e) ? null : Promise.reject(e)));
    if (!dir) return false;
    try {
      return await removeEntry(dir, parts[parts.length - 1]!);
    } finally {
      await dir.handle.close();
    }
  }

  /** Opens the folder `parts` names, one component at a time, creating missing ones when asked. */
  private async walk(parts: readonly string[], create: boolean): Promise<Dir> {
    let dir: Dir = { handle: await fs.open(this.root, C.O_RDONLY | C.O_DIRECTORY), path: this.root };
    try {
      for (const part of parts) {
        const next = await openChild(dir, part, create);
        await dir.handle.close();
        dir = next;
      }
      return dir;
    } catch (e) {
      await dir.handle.close().catch(() => undefined);
      throw e;
    }
  }
}

async function openChild(dir: Dir, name: string, create: boolean): Promise<Dir> {
  const child = at(dir, name);
  const open = async (): Promise<Dir> => ({ handle: await fs.open(child, DIR_FLAGS), path: path.join(dir.path, name) });
  try {
    return await open();
  } catch (e) {
    if (isMissing(e) && create) {
      // mkdir never follows a link at its last component; the open after it refuses one swapped in.
      await fs.mkdir(child).catch((err: unknown) => (code(err) === 'EEXIST' ? undefined : Promise.reject(err)));
      return open().catch(async (err: unknown) => {
        throw await explain(err, name, dir);
      });
    }
    throw await explain(e, name, dir);
  }
}

/** Why a folder step failed, in the agent's terms: a link, or a file where a folder is needed. */
async function explain(e: unknown, name: string, dir: Dir): Promise<unknown> {
  if (code(e) !== 'ENOTDIR' && code(e) !== 'ELOOP') return e;
  const st = await fs.lstat(at(dir, name)).catch(() => null);
  if (st?.isSymbolicLink()) return new RefusedPath(`"${name}" is a symbolic link; writes through links are refused`);
  return new RefusedPath(`"${name}" is a file, not a folder`);
}

async function removeEntry(dir: Dir, name: string): Promise<boolean> {
  const st = await fs.lstat(at(dir, name)).catch((e: unknown) => (isMissing(e) ? null : Promise.reject(e)));
  if (!st) return false;
  if (!st.isDirectory()) {
    await fs.unlink(at(dir, name));
    return true;
  }
  const child = await openChild(dir, name, false);
  try {
    for (const entry of await fs.readdir(at(child, '.'))) await removeEntry(child, entry);
  } finally {
    await child.handle.close();
  }
  await fs.rmdir(at(dir, name));
  return true;
}

function code(e: unknown): string | undefined {
  return e instanceof Error && 'code' in e && typeof e.code === 'string' ? e.code : undefined;
}

function isMissing(e: unknown): boolean {
  return code(e) === 'ENOENT';
}
