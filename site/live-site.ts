import { startSite, type SiteOptions, type StartedSite } from './site.js';

/**
 * The site as it runs during an episode, the way a developer keeps a dev server open: started after
 * the first change, restarted after each change (a build-mode project must be rebuilt, and a dev
 * server may have died on the previous version), reused by verify steps in between.
 */
export class LiveSite {
  private current: StartedSite | undefined;

  constructor(
    private readonly root: string,
    private readonly options: SiteOptions = {},
  ) {}

  /** Restarts after the workspace changed; returns the fresh site. */
  async restart(): Promise<StartedSite> {
    await this.close();
    this.current = await startSite(this.root, this.options);
    return this.current;
  }

  /** The running site, started if none is. */
  async ensure(): Promise<StartedSite> {
    return this.current ?? this.restart();
  }

  async close(): Promise<void> {
    const site = this.current;
    this.current = undefined;
    await site?.close().catch(() => undefined);
  }
}
