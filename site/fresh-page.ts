import type { Browser, BrowserContext, Page } from '@playwright/test';
import { aimAt, allowOnlyOrigin, NO_ORIGIN_YET, SERVICE_WORKERS } from '../sandbox/browser-network.js';

export const VIEWPORT = { width: 1280, height: 800 };

export interface FreshPage {
  context: BrowserContext;
  page: Page;
}

/** Something done to a new context before its page is used (a network rule), named so a spare made with it is recognised. */
export interface Preparation {
  key: string;
  prepare(context: BrowserContext): Promise<unknown>;
}

export interface FreshOptions {
  prepare?: Preparation;
  /** The next call will ask for the same preparation (the next slot of a case): the spare is made with it, off the caller's time. */
  nextLikeThis?: boolean;
}

/**
 * A new context with one blank page, as every look at an agent's site needs (no storage, cookies or
 * service worker left by an earlier look). Making one starts a renderer process, about 250 ms of a
 * 750 ms verify step (measured on 2 cores), so one spare is made ahead, in the background, while the
 * agent thinks about its next step; it has never loaded anything, so it is as fresh as one made on demand.
 * A caller that will ask again with the same preparation (the judged slots of a case, each routed to the
 * site's origin) has the spare prepared too; a spare prepared for something else is never handed out
 * (a route cannot be taken back whole: Playwright keeps WebSocket routes), it is closed and a page made anew.
 * The spare costs one idle renderer per browser. The caller owns what it gets and closes the context.
 */
const spares = new WeakMap<Browser, { key: string | undefined; ready: Promise<FreshPage | null>; now: () => void }>();

/**
 * The spare is made once the page just handed out has loaded, not while it loads: starting a renderer takes
 * the cores for about 100 ms, and made at once it doubled that page's opening (60 -> 100-130 ms on 2 cores,
 * one slot at a time). After the load the page waits for rest (a quiet window of 100 ms at least) and is
 * looked at. A caller that asks before then gets it started at once.
 */
const SPARE_AFTER_LOAD_MS = 3000;

async function make(browser: Browser, prepare?: Preparation): Promise<FreshPage> {
  const context = await browser.newContext({ viewport: VIEWPORT, serviceWorkers: SERVICE_WORKERS });
  try {
    if (prepare) await prepare.prepare(context);
    return { context, page: await context.newPage() };
  } catch (e) {
    await context.close().catch(() => {});
    throw e;
  }
}

function makeSpare(browser: Browser, prepare: Preparation | undefined, after: Page | null): void {
  if (!browser.isConnected()) return;
  let now!: () => void;
  const go = new Promise<void>((r) => (now = r));
  spares.set(browser, { key: prepare?.key, ready: go.then(() => make(browser, prepare)).catch(() => null), now });
  if (after) void after.waitForEvent('load', { timeout: SPARE_AFTER_LOAD_MS }).then(now, now);
  else now();
}

export async function freshPage(browser: Browser, opts: FreshOptions = {}): Promise<FreshPage> {
  const spare = spares.get(browser);
  spares.delete(browser);
  spare?.now();
  const ready = spare ? await spare.ready : null;
  const handOut = async (): Promise<FreshPage> => {
    const usable = ready && !ready.page.isClosed() && browser.isConnected();
    if (usable && spare?.key === opts.prepare?.key) return ready;
    if (usable && spare?.key === undefined && opts.prepare) {
      try {
        await opts.prepare.prepare(ready.context);
        return ready;
      } catch (e) {
        await ready.context.close().catch(() => {});
        throw e;
      }
    }
    if (ready) await ready.context.close().catch(() => {});
    return make(browser, opts.prepare);
  };
  const next = opts.nextLikeThis ? opts.prepare : undefined;
  const out = await handOut().catch((e: unknown) => {
    makeSpare(browser, next, null);
    throw e;
  });
  makeSpare(browser, next, out.page);
  return out;
}

/** Every look at an agent's site: a context that reaches only that site, its rule made ahead of knowing which. */
const SITE_ONLY: Preparation = { key: 'site only', prepare: (context) => allowOnlyOrigin(context, NO_ORIGIN_YET) };

/**
 * A fresh page whose context reaches only `origin` (sandbox/browser-network.ts). Every look at an agent's site
 * (a verify step, the checks after an edit, an audit, the judge's checks and slots) asks for the same
 * preparation, so the spare made while the agent thinks is routed already, whichever site the next look is at.
 */
export async function sitePage(browser: Browser, origin: string): Promise<FreshPage> {
  const fresh = await freshPage(browser, { prepare: SITE_ONLY, nextLikeThis: true });
  aimAt(fresh.context, origin);
  return fresh;
}
