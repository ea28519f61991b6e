import { promises as fs } from 'node:fs';
import path from 'node:path';
import { siteEnvironment } from '../sandbox/env.js';
import { SITE_LIMITS } from '../sandbox/policy.js';
import { getSandbox } from '../sandbox/sandbox.js';
import { detectProject, findBuildOutput } from './npm-project.js';
import { installIfNeeded, runScript } from './npm-site.js';
import { serveErrorPage, serveStatic, type ServedSite } from './site-server.js';
import type { InstallLimits, ResolvedSiteOptions, SiteOptions, StartedSite } from './types.js';

export type { InstallLimits, ResolvedSiteOptions, SiteMode, SiteOptions, StartedSite } from './types.js';

export const DEFAULT_INSTALL_LIMITS: InstallLimits = { files: 60_000, bytes: 1024 * 1024 * 1024 };

export const DEFAULT_SITE_OPTIONS = { installTimeoutMs: 180_000, buildTimeoutMs: 180_000, startTimeoutMs: 60_000 };

/**
 * Starts whatever the agent built so a browser can open it. Every caller (verify steps, the judged
 * site) goes through here, so the way a workspace becomes a URL is decided in one place. A static
 * folder is served directly; an npm project is installed and started (dev, else build and serve the
 * output, else start). When nothing starts, what is servable is served, else a page naming the failure.
 */
export async function startSite(workspaceRoot: string, options: SiteOptions = {}): Promise<StartedSite> {
  const root = await fs.realpath(workspaceRoot);
  const project = await detectProject(root);
  if (project.kind === 'static') {
    return { ...(await serveStatic(root)), mode: 'static', problems: project.problem ? [project.problem] : [], log: '' };
  }
  // Only a project that runs processes needs the sandbox (detecting it spawns bubblewrap).
  const opts: ResolvedSiteOptions = {
    installTimeoutMs: options.installTimeoutMs ?? DEFAULT_SITE_OPTIONS.installTimeoutMs,
    buildTimeoutMs: options.buildTimeoutMs ?? DEFAULT_SITE_OPTIONS.buildTimeoutMs,
    startTimeoutMs: options.startTimeoutMs ?? DEFAULT_SITE_OPTIONS.startTimeoutMs,
    env: siteEnvironment(options.env),
    sandbox: options.sandbox ?? getSandbox(),
    limits: options.limits ?? SITE_LIMITS,
    installLimits: options.installLimits ?? DEFAULT_INSTALL_LIMITS,
  };
  const problems: string[] = [];
  const installProblem = await installIfNeeded(root, project, opts);
  if (installProblem) problems.push(installProblem);
  for (const script of project.order) {
    const attempt = await runScript(root, project, script, opts);
    if ('site' in attempt) return { ...attempt.site, problems: [...problems, ...attempt.site.problems] };
    problems.push(attempt.problem);
  }
  return fallback(root, problems);
}

async function fallback(root: string, problems: string[]): Promise<StartedSite> {
  const built = await findBuildOutput(root);
  const hasIndex = await fs.stat(path.join(root, 'index.html')).then((s) => s.isFile(), () => false);
  const folder = built ?? (hasIndex ? root : null);
  if (folder) {
    const note = `no script started a server, so ${folder === root ? 'the project folder' : path.basename(folder) + '/'} was served as static files`;
    return { ...(await serveStatic(folder, { fence: root })), mode: 'static', problems: [...problems, note], log: '' };
  }
  return { ...(await serveErrorPage(problems)), mode: 'error', problems, log: '' };
}

export type { ServedSite };
