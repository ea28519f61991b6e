import { promises as fs } from 'node:fs';
import path from 'node:path';

export interface WorkspaceLimits {
  maxFileBytes: number;
  maxTotalBytes: number;
  maxFiles: number;
}

/** Left out of the file list the trajectory keeps (installed packages, version control): noise there. */
const SKIPPED_DIRS = new Set(['node_modules', '.git']);

/**
 * Folders an agent may not write into: node_modules is the harness's npm install's (from the agent's
 * package.json; install-limits.ts bounds it), and .git is no part of a site. Writes there would
 * otherwise fill the disk uncounted.
 */
const REFUSED_DIRS = new Set(['node_modules', '.git']);

export const DEFAULT_LIMITS: WorkspaceLimits = { maxFileBytes: 1 << 20, maxTotalBytes: 20 << 20, maxFiles: 400 };

export interface WriteOutcome {
  written: string[];
  deleted: string[];
  errors: string[];
}

/**
 * The case's site folder. Agent-written paths are untrusted: absolute paths, `..`, NUL bytes and paths
 * through symlinks are refused, so nothing an agent writes lands outside the folder. A refusal is an
 * observation for the agent (it costs the step), not an exception.
 */
export class Workspace {
  private constructor(readonly root: string, private readonly limits: WorkspaceLimits) {}

  static async open(dir: string, limits: WorkspaceLimits = DEFAULT_LIMITS): Promise<Workspace> {
    await fs.mkdir(dir, { recursive: true });
    return new Workspace(await fs.realpath(dir), limits);
  }

  async apply(files: { path: string; content: string }[], deletes: string[] = []): Promise<WriteOutcome> {
    let usage: { files: number; bytes: number } | undefined;
    const out: WriteOutcome = { written: [], deleted: [], errors: [] };
    for (const rel of deletes) {
      const target = await this.resolve(rel);
      if (typeof target !== 'string') {
        out.errors.push(`delete ${rel}: ${target.error}`);
        continue;
      }
      await fs.rm(target, { force: true, recursive: true });
      out.deleted.push(normalise(rel));
    }
    for (const f of files) {
      const target = await this.resolve(f.path);
      if (typeof target !== 'string') {
        out.errors.push(`write ${f.path}: ${target.error}`);
        continue;
      }
      const bytes = Buffer.byteLength(f.content);
      if (bytes > this.limits.maxFileBytes) {
        out.errors.push(`write ${f.path}: ${bytes} bytes exceeds the per-file limit of ${this.limits.maxFileBytes}`);
        continue;
      }
      // Measured once per apply and kept up to date here: re-walking the tree per file made a
      // many-file implement step quadratic.
      usage ??= await this.usage();
      const existing = await fs.stat(target).then((s) => s.size, () => -1);
      if (existing < 0 && usage.files + 1 > this.limits.maxFiles) {
        out.errors.push(`write ${f.path}: the workspace already holds ${usage.files} files (limit ${this.limits.maxFiles})`);
        continue;
      }
      if (usage.bytes - Math.max(existing, 0) + bytes > this.limits.maxTotalBytes) {
        out.errors.push(`write ${f.path}: the workspace would exceed ${this.limits.maxTotalBytes} bytes`);
        continue;
      }
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.writeFile(target, f.content);
      usage.bytes += bytes - Math.max(existing, 0);
      if (existing < 0) usage.files++;
      out.written.push(normalise(f.path));
    }
    return out;
  }

  /** Copies a trusted folder in (the reference agent's site). */
  async importFolder(from: string): Promise<string[]> {
    await fs.cp(from, this.root, { recursive: true });
    return this.list();
  }

  /**
   * Files the agent wrote (and build output), not installed packages: node_modules is what the harness's
   * npm install put there, and counting it would both flood the trajectory and trip the size limits.
   */
  async list(): Promise<string[]> {
    const out: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const e of await fs.readdir(dir, { withFileTypes: true })) {
        const full = path.join(dir, e.name);
        if (e.isDirectory()) {
          if (!SKIPPED_DIRS.has(e.name)) await walk(full);
        } else if (e.isFile()) {
          out.push(path.relative(this.root, full).split(path.sep).join('/'));
        }
      }
    };
    await walk(this.root);
    return out.sort();
  }

  /**
   * Every file counts, .git and nested node_modules too (a build script may write them), except the
   * top-level node_modules the harness's install made, which has limits of its own.
   */
  async usage(): Promise<{ files: number; bytes: number }> {
    return treeUsage(this.root, (rel) => rel === 'node_modules');
  }

  private async resolve(rel: string): Promise<string | { error: string }> {
    if (rel.includes('\0')) return { error: 'the path contains a NUL byte' };
    if (path.isAbsolute(rel) || /^[A-Za-z]:/.test(rel)) return { error: 'absolute paths are refused; use a path inside the site folder' };
    const parts = rel.split(/[\\/]+/).filter((p) => p !== '' && p !== '.');
    if (parts.length === 0) return { error: 'empty path' };
    if (parts.includes('..')) return { error: '".." is refused; paths stay inside the site folder' };
    const refused = parts.find((p) => REFUSED_DIRS.has(p.toLowerCase()));
    if (refused) return { error: `"${refused}" is refused: ${refused === '.git' ? 'version control is no part of the site' : 'packages are installed by the harness from package.json'}` };
    let current = this.root;
    for (const part of parts) {
      current = path.join(current, part);
      const stat = await fs.lstat(current).catch(() => null);
      if (stat?.isSymbolicLink()) return { error: `"${part}" is a symbolic link; writes through links are refused` };
      if (!stat) break;
    }
    return path.join(this.root, ...parts);
  }
}

/** Files and bytes under `root` (links counted as files, not followed), skipping folders `skip` names. */
export async function treeUsage(root: string, skip: (rel: string) => boolean = () => false): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
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

function normalise(rel: string): string {
  return rel.split(/[\\/]+/).filter((p) => p !== '' && p !== '.').join('/');
}

/** Non-blank lines of source files in the workspace (node_modules and build output excluded). */
export async function linesOfCode(ws: Workspace): Promise<number> {
  const code = /\.(html?|css|m?js|jsx|tsx?|vue|svelte|json)$/i;
  let n = 0;
  for (const f of await ws.list()) {
    if (!code.test(f) || /(^|\/)(node_modules|dist|build)\//.test(f) || f.endsWith('package-lock.json')) continue;
    const text = await fs.readFile(path.join(ws.root, f), 'utf8');
    n += text.split('\n').filter((l) => l.trim() !== '').length;
  }
  return n;
}

/** Folders and files the paper's workspace snapshot leaves out (its get_workspace_state exclusions). */
const PAPER_SKIPPED_DIRS = new Set(['node_modules', 'dist', '.next']);
const PAPER_SKIPPED_FILES = new Set(['package-lock.json']);

/**
 * The paper's LOC: every line of every final file, whatever its kind (images read as text too), except
 * under node_modules, dist and .next and any package-lock.json. Lines are counted as Python's
 * `str.splitlines` counts them, so a last line without a newline counts and a trailing newline adds none.
 * Links are not followed: an agent's link could point anywhere.
 */
export async function linesOfCodePaper(root: string): Promise<number> {
  let n = 0;
  const walk = async (dir: string): Promise<void> => {
    for (const e of await fs.readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (!PAPER_SKIPPED_DIRS.has(e.name)) await walk(full);
      } else if (e.isFile() && !PAPER_SKIPPED_FILES.has(e.name)) {
        n += splitLinesCount(await fs.readFile(full, 'utf8').catch(() => ''));
      }
    }
  };
  await walk(root);
  return n;
}

/** How many lines Python's `str.splitlines()` finds: every line boundary it knows, no empty last line. */
export function splitLinesCount(text: string): number {
  if (text === '') return 0;
  // Python counts the file, group and record separators (\x1c-\x1e) as line boundaries too.
  // eslint-disable-next-line no-control-regex
  const parts = text.split(/\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/);
  return parts[parts.length - 1] === '' ? parts.length - 1 : parts.length;
}
