import type { Browser } from '@playwright/test';

/**
 * Chromium's browser process died under a piece of work: what that work found is about the harness, not the
 * page (another case's page may have taken the shared browser down). A finding kept beside a trajectory (the
 * crash rule's, the visual check's) is therefore never written then: the work is done again in a live browser.
 */
export class BrowserLost extends Error {
  constructor(what: string) {
    super(`Chromium's browser process died while ${what}`);
    this.name = 'BrowserLost';
  }
}

/**
 * Whether the browser still answers. `isConnected()` alone is not enough: a call fails with "Browser closed"
 * some tens of milliseconds before the connection says it is gone, so a new context is asked for.
 */
export async function browserAlive(browser: Browser): Promise<boolean> {
  if (!browser.isConnected()) return false;
  try {
    const context = await browser.newContext();
    await context.close();
    return browser.isConnected();
  } catch {
    return false;
  }
}

export async function assertBrowserAlive(browser: Browser, what: string): Promise<void> {
  if (!(await browserAlive(browser))) throw new BrowserLost(what);
}

/**
 * Page work that met a dead browser is done once more in the browser `again` gives for it (the run's, connected
 * again: fixtures/shared-browser.ts). A failure in a live browser is the page's, and is thrown as it was.
 */
export async function onLiveBrowser<T>(browser: Browser, again: (dead: Browser) => Promise<Browser>, work: (browser: Browser) => Promise<T>): Promise<T> {
  try {
    return await work(browser);
  } catch (e) {
    if (await browserAlive(browser)) throw e;
    return work(await again(browser));
  }
}
