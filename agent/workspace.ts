import { promises as fs } from 'node:fs';
import path from 'node:path';
import { agentCaused, ConfinedDir, RefusedPath } from '../sandbox/confined-fs.js';
import { treeUsage } from '../sandbox/tree-usage.js';

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
 * through symlinks are refused, and writes and deletes never follow a link (sandbox/confined-fs.ts), so nothing
 * an agent writes lands outside the folder. A refusal, like any other error the agent's input causes
 * (a file where a folder is needed), is an observation for the agent (it costs the step), not an
 * exception; only a fault of the harness's side (its disk full) is thrown.
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
    const dir = new ConfinedDir(this.root);
    for (const rel of deletes) {
      const parts = this.check(rel);
      if (typeof parts === 'string') {
        out.errors.push(`delete ${rel}: ${parts}`);
        continue;
      }
      const refusal = await agentCaused(() => dir.remove(parts));
      if (refusal) out.errors.push(`delete ${rel}: ${refusal}`);
      else out.deleted.push(parts.join('/'));
    }
    for (const f of files) {
      const parts = this.check(f.path);
      if (typeof parts === 'string') {
        out.errors.push(`write ${f.path}: ${parts}`);
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
      const current = usage;
      const refusal = await agentCaused(async () => {
        const found = await dir.lstat(parts);
        const existing = found?.isFile() ? found.size : found ? 0 : -1;
        if (existing < 0 && current.files + 1 > this.limits.maxFiles) {
          throw new RefusedPath(`the workspace already holds ${current.files} files (limit ${this.limits.maxFiles})`);
        }
        if (current.bytes - Math.max(existing, 0) + bytes > this.limits.maxTotalBytes) {
          throw new RefusedPath(`the workspace would exceed ${this.limits.maxTotalBytes} bytes`);
        }
        await dir.writeFile(parts, f.content);
        current.bytes += bytes - Math.max(existing, 0);
        if (existing < 0) current.files++;
      });
      if (refusal) out.errors.push(`write ${f.path}: ${refusal}`);
      else out.written.push(parts.join('/'));
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

  /** The path's components, or why the path is refused before touching the disk. */
  private check(rel: string): string[] | string {
    if (rel.includes('\0')) return 'the path contains a NUL byte';
    if (path.isAbsolute(rel) || /^[A-Za-z]:/.test(rel)) return 'absolute paths are refused; use a path inside the site folder';
    const parts = rel.split(/[\\/]+/).filter((p) => p !== '' && p !== '.');
    if (parts.length === 0) return 'empty path';
    if (parts.includes('..')) return '".." is refused; paths stay inside the site folder';
    const refused = parts.find((p) => REFUSED_DIRS.has(p.toLowerCase()));
    if (refused) return `"${refused}" is refused: ${refused === '.git' ? 'version control is no part of the site' : 'packages are installed by the harness from package.json'}`;
    return parts;
  }
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
