import type { Browser, BrowserContext, Page } from '@playwright/test';
import { SERVICE_WORKERS } from '../sandbox/browser-network.js';

export const VIEWPORT = { width: 1280, height: 800 };

export interface FreshPage {
  context: BrowserContext;
  page: Page;
}

/**
 * A new context with one blank page, as every look at an agent's site needs (no storage, cookies or
 * service worker left by an earlier look). Making one starts a renderer process, about 250 ms of a
 * 750 ms verify step (measured on 2 cores), so one spare is made ahead, in the background, while the
 * agent thinks about its next step; it has never loaded anything, so it is as fresh as one made on demand.
 * The spare costs one idle renderer per browser. The caller owns what it gets and closes the context.
 */
const spares = new WeakMap<Browser, Promise<FreshPage | null>>();

async function make(browser: Browser): Promise<FreshPage> {
  const context = await browser.newContext({ viewport: VIEWPORT, serviceWorkers: SERVICE_WORKERS });
  try {
    return { context, page: await context.newPage() };
  } catch (e) {
    await context.close().catch(() => {});
    throw e;
  }
}

function makeSpare(browser: Browser): void {
  if (!browser.isConnected()) return;
  spares.set(browser, make(browser).catch(() => null));
}

export async function freshPage(browser: Browser): Promise<FreshPage> {
  const spare = spares.get(browser);
  spares.delete(browser);
  const ready = spare ? await spare : null;
  makeSpare(browser);
  if (ready && !ready.page.isClosed() && browser.isConnected()) return ready;
  if (ready) await ready.context.close().catch(() => {});
  return make(browser);
}
