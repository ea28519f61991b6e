import { startSite, type SiteOptions, type StartedSite } from './site.js';
import { checkSiteQuota, DEFAULT_SITE_QUOTA, type SiteQuota } from './site-quota.js';

/**
 * The site as it runs during an episode, the way a developer keeps a dev server open: started after
 * the first change, restarted after each change (a build-mode project must be rebuilt, and a dev
 * server may have died on the previous version), reused by verify steps in between. The harness
 * writes into the workspace only through `edit`, which stops the site first: a server left running
 * could swap a folder for a link while the harness writes. Each stop and each start measures what the
 * site's processes wrote against the quota (site-quota.ts).
 */
export class LiveSite {
  private current: StartedSite | undefined;
  private ended = false;

  constructor(
    private readonly root: string,
    private readonly options: SiteOptions = {},
    private readonly quota: SiteQuota = DEFAULT_SITE_QUOTA,
  ) {}

  /** Restarts after the workspace changed; returns the fresh site. */
  async restart(): Promise<StartedSite> {
    await this.close();
    this.refuseWhenEnded();
    const site = await startSite(this.root, this.options);
    if (this.ended) {
      // The episode ended (its budget) while this start ran: nothing may outlive it.
      await site.close().catch(() => undefined);
      this.refuseWhenEnded();
    }
    this.current = site;
    await checkSiteQuota(this.root, this.quota, { installed: false });
    return site;
  }

  /** The running site, started if none is. */
  async ensure(): Promise<StartedSite> {
    return this.current ?? this.restart();
  }

  /** Runs a change to the workspace with every process of the site stopped; the site starts again on the next restart or ensure. */
  async edit<T>(change: () => Promise<T>): Promise<T> {
    await this.close();
    this.refuseWhenEnded();
    return change();
  }

  /** The episode is over: the site stops, and a step still running can neither start it again nor write. */
  async end(): Promise<void> {
    this.ended = true;
    await this.close();
  }

  private refuseWhenEnded(): void {
    if (this.ended) throw new Error('the episode is over: the site is not started and the workspace not written again');
  }

  /** Stops the site; throws SiteOverQuota when what it left is over the quota. */
  async close(): Promise<void> {
    const site = this.current;
    this.current = undefined;
    if (!site) return;
    await site.close().catch(() => undefined);
    await checkSiteQuota(this.root, this.quota);
  }
}
