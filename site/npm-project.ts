import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/**
 * What kind of project an agent left in its workspace. A package.json with a `dev`, `build` or `start`
 * script makes it an npm project; anything else is served as static files. The package.json is
 * agent-written, so every field is checked before it is trusted.
 */

const PackageJsonSchema = z
  .object({
    scripts: z.record(z.string(), z.string()).optional(),
    dependencies: z.record(z.string(), z.string()).optional(),
    devDependencies: z.record(z.string(), z.string()).optional(),
  })
  .loose();

export type StartScript = 'dev' | 'build' | 'start';

export interface NpmProject {
  kind: 'npm';
  scripts: Partial<Record<StartScript, string>>;
  /** In the order they are tried: dev first (what a developer runs), then build + static, then start. */
  order: StartScript[];
  hasDependencies: boolean;
  /** Changes when the declared dependencies change, so an install is redone only then. */
  installKey: string;
}

export type ProjectKind = NpmProject | { kind: 'static'; problem?: string };

export async function detectProject(root: string): Promise<ProjectKind> {
  const text = await fs.readFile(path.join(root, 'package.json'), 'utf8').catch(() => null);
  if (text === null) return { kind: 'static' };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { kind: 'static', problem: `package.json is not valid JSON (${(e as Error).message}); the folder was served as static files` };
  }
  const parsed = PackageJsonSchema.safeParse(json);
  if (!parsed.success) {
    return { kind: 'static', problem: `package.json: ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}; the folder was served as static files` };
  }
  const pkg = parsed.data;
  const scripts: Partial<Record<StartScript, string>> = {};
  for (const name of ['dev', 'build', 'start'] as const) {
    const s = pkg.scripts?.[name];
    if (s && s.trim()) scripts[name] = s;
  }
  const order = (['dev', 'build', 'start'] as const).filter((n) => scripts[n] !== undefined);
  if (order.length === 0) return { kind: 'static' };
  const deps = { ...pkg.dependencies, ...pkg.devDependencies };
  return {
    kind: 'npm',
    scripts,
    order: [...order],
    hasDependencies: Object.keys(deps).length > 0,
    // Only what the agent declared: the lock file is written by the install itself and would force a second one.
    installKey: createHash('sha256').update(JSON.stringify(deps)).digest('hex').slice(0, 16),
  };
}

/**
 * Flags that make common dev servers listen where the harness looks. Dev servers that honour only
 * their own flags (vite, astro, next) would otherwise pick their default port and the `localhost`
 * interface, which may be ::1 only.
 */
export function portArgs(script: string, port: number): string[] {
  if (/\bnext\s+(dev|start)\b/.test(script)) return ['-p', String(port), '-H', '127.0.0.1'];
  if (/\bvite\s+build\b/.test(script)) return [];
  if (/\b(vite|astro|webpack-dev-server|webpack\s+serve)\b/.test(script)) return ['--port', String(port), '--host', '127.0.0.1'];
  return [];
}

/** Where a build script usually writes the site; the first holding an index.html is served. */
export const BUILD_DIRS = ['dist', 'build', 'out'];

/**
 * The build folder to serve: the first of BUILD_DIRS with an index.html whose real path stays in the
 * workspace. A build script may leave `dist` as a link to any folder (the reference site of the task):
 * such a folder is never served.
 */
export async function findBuildOutput(root: string): Promise<string | null> {
  const rootReal = await fs.realpath(root);
  for (const d of BUILD_DIRS) {
    const dir = path.join(root, d);
    const real = await fs.realpath(dir).catch(() => null);
    if (!real || (real !== rootReal && !real.startsWith(rootReal + path.sep))) continue;
    if (await fs.stat(path.join(real, 'index.html')).then((s) => s.isFile(), () => false)) return dir;
  }
  return null;
}

/** The build folders that are links leading out of the workspace, named for the agent's observation. */
export async function buildOutputLeaving(root: string): Promise<string[]> {
  const rootReal = await fs.realpath(root);
  const out: string[] = [];
  for (const d of BUILD_DIRS) {
    const real = await fs.realpath(path.join(root, d)).catch(() => null);
    if (real && real !== rootReal && !real.startsWith(rootReal + path.sep)) out.push(`${d}/`);
  }
  return out;
}

/**
 * Origins a dev server printed, the 127.0.0.1 form first (localhost and 0.0.0.0 mean this machine);
 * the `localhost` form is kept as a second choice for servers that listen on ::1 only.
 */
export function urlsInOutput(text: string): string[] {
  const found = new Set<string>();
  // eslint-disable-next-line no-control-regex
  const plain = text.replace(/\u001b\[[0-9;]*m/g, '');
  for (const m of plain.matchAll(/https?:\/\/(127\.0\.0\.1|localhost|0\.0\.0\.0|\[::1\]):(\d{2,5})/g)) {
    found.add(`http://127.0.0.1:${m[2]}`);
    if (m[1] === 'localhost' || m[1] === '[::1]') found.add(`http://localhost:${m[2]}`);
  }
  return [...found];
}
