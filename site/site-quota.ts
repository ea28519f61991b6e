import path from 'node:path';
import { treeUsage } from '../sandbox/tree-usage.js';
import { DEFAULT_INSTALL_LIMITS } from './site.js';
import type { InstallLimits } from './types.js';

/**
 * What the site's own processes (build, dev server, whatever they started) may leave in the workspace.
 * The protocol's writes have their own, tighter limits (agent/workspace.ts), and npm install its own
 * (InstallLimits); a process of the site can write anywhere in the workspace, so the workspace is
 * measured whenever no such process can still be writing or one has just finished: after a site
 * stops, after one starts (its build done) and at the end of the episode. Over the quota, the episode
 * is the agent's failure (SiteOverQuota), and what is on disk is judged as it stands.
 */
export interface SiteQuota {
  /** Outside the top-level node_modules: sources, build output, caches, anything a script wrote. */
  files: number;
  bytes: number;
  /** The top-level node_modules, which the install filled and a script may grow. */
  installed: InstallLimits;
}

/** Room for a framework's build output and cache (a Next.js .next/ with its webpack cache runs to ~100 MiB). */
export const DEFAULT_SITE_QUOTA: SiteQuota = { files: 20_000, bytes: 256 * 2 ** 20, installed: DEFAULT_INSTALL_LIMITS };

/** The workspace holds more than the quota: the site's processes wrote it, so it is the agent's failure. */
export class SiteOverQuota extends Error {
  override name = 'SiteOverQuota';
}

/**
 * Throws SiteOverQuota when the workspace is over the quota. `installed: false` leaves node_modules
 * (tens of thousands of files to walk) to the next full measure: right after a start, the install has
 * just been measured by its own limits.
 */
export async function checkSiteQuota(root: string, quota: SiteQuota = DEFAULT_SITE_QUOTA, how: { installed: boolean } = { installed: true }): Promise<void> {
  const own = await treeUsage(root, (rel) => rel === 'node_modules');
  const installed = how.installed ? await treeUsage(path.join(root, 'node_modules')) : { files: 0, bytes: 0 };
  const over = (used: { files: number; bytes: number }, max: { files: number; bytes: number }, what: string) =>
    used.files > max.files || used.bytes > max.bytes
      ? `${what} holds ${used.files} files, ${size(used.bytes)}, over the quota of ${max.files} files, ${size(max.bytes)}`
      : null;
  const problem = over(own, quota, 'the site folder (node_modules aside)') ?? over(installed, quota.installed, 'node_modules');
  if (problem) throw new SiteOverQuota(`${problem}: the site's processes (build, server) wrote it; the site is judged as it stands`);
}

const size = (bytes: number) => (bytes >= 2 ** 20 ? `${Math.round(bytes / 2 ** 20)} MiB` : `${bytes} bytes`);
