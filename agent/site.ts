import { serveStatic, type ServedSite } from './site-server.js';

/**
 * Starts whatever the agent built so a browser can open it. Every caller (verify steps, the judged
 * site) goes through here, so the way a workspace becomes a URL is decided in one place.
 */
export async function startSite(workspaceRoot: string): Promise<ServedSite> {
  return serveStatic(workspaceRoot);
}

export type { ServedSite };
