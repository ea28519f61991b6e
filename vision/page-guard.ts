import type { Dialog, Page } from '@playwright/test';
import { allowOnlyOrigin, sameOrigin } from '../sandbox/browser-network.js';

/**
 * What the judge's browser may do while it explores a site: reach the site's own origin and nothing
 * else (HTTP or WebSocket), click native dialogs away the way a user would, and stay on the site when a link leads off it.
 * The rule holds for the page's whole browser context, not the page alone: a popup (`window.open`,
 * `target=_blank`) is a new page of the same context, and a page-level route never sees its requests.
 * The fixture routes the context too; this guard is the judge's own, so the CLI and calibration (which
 * have no fixture) get the same rule, and the verdict can say how many requests were refused.
 */
export interface PageGuard {
  readonly origin: string;
  /** Requests to other origins refused so far. */
  blocked(): number;
  blockedHosts(): string[];
  /** Dialogs since the last call, as `type: message` (page text: treat as untrusted). */
  takeDialogs(): string[];
  /** A path or URL resolved against the site, or null when it would leave the site's origin. */
  resolve(pathOrUrl: string): string | null;
  inSite(url: string): boolean;
  dispose(): Promise<void>;
}

/** The value typed into prompt() dialogs: harmless, and recognisable in a site's output. */
export const DIALOG_TEST_VALUE = 'test';

export async function guardPage(page: Page, siteUrl: string): Promise<PageGuard> {
  const base = new URL(siteUrl.endsWith('/') ? siteUrl : siteUrl + '/');
  const origin = base.origin;
  let blocked = 0;
  const hosts = new Set<string>();
  let dialogs: string[] = [];

  const onDialog = (d: Dialog) => {
    dialogs.push(`${d.type()}: ${d.message().slice(0, 300)}`);
    (d.type() === 'prompt' ? d.accept(DIALOG_TEST_VALUE) : d.accept()).catch(() => {});
  };
  const network = await allowOnlyOrigin(page.context(), origin, (url) => {
    blocked++;
    hosts.add(hostOf(url));
  });
  page.on('dialog', onDialog);

  return {
    origin,
    blocked: () => blocked,
    blockedHosts: () => [...hosts],
    takeDialogs: () => {
      const out = dialogs;
      dialogs = [];
      return out;
    },
    resolve(pathOrUrl) {
      let url: URL;
      try {
        url = new URL(pathOrUrl.startsWith('/') ? pathOrUrl.slice(1) : pathOrUrl, base);
      } catch {
        return null;
      }
      return url.origin === origin ? url.toString() : null;
    },
    inSite: (url) => sameOrigin(url, origin),
    async dispose() {
      page.off('dialog', onDialog);
      await network.dispose();
    },
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host || url.slice(0, 60);
  } catch {
    return url.slice(0, 60);
  }
}
