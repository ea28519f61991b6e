import type { Browser, Page } from '@playwright/test';
import { sitePage } from './fresh-page.js';
import { watchPageErrors } from './page-errors.js';
import { responsive } from './unresponsive.js';
import { pageWork } from './page-gate.js';
import { viewportPng } from './screenshot.js';
import { AFTER_LOAD, settle, watchRequests } from './settle.js';

export interface Rendering {
  title: string;
  png: Buffer;
  consoleErrors: string[];
}

export type PageCheck = Omit<Rendering, 'png'>;

export { VIEWPORT } from './fresh-page.js';

/**
 * Opens one path of a served site in a fresh context and photographs it, as a verify step shows the
 * agent. Requests to any other origin are aborted: the site under test is all the browser may reach.
 */
export async function renderPage(browser: Browser, siteUrl: string, pagePath: string): Promise<Rendering> {
  // The judge's picture (site/screenshot.ts), also for a page photographed once: the DevTools session and its fast
  // encoder took 67-80 ms against 91-102 for Playwright's screenshot, session included (fresh pages, 2 cores).
  return visit(browser, siteUrl, pagePath, async (page) => viewportPng(page));
}

/** The same visit without the picture: what an implement step reports about the page it changed. */
export async function checkPage(browser: Browser, siteUrl: string, pagePath: string): Promise<PageCheck> {
  const { title, consoleErrors } = await visit(browser, siteUrl, pagePath, async () => Buffer.alloc(0));
  return { title, consoleErrors };
}

/** Opening and photographing are page work, each taking its turn (site/page-gate.ts); the wait for rest between holds none. */
async function visit(browser: Browser, siteUrl: string, pagePath: string, shoot: (page: Page) => Promise<Buffer>): Promise<Rendering> {
  const { context, page } = await pageWork(() => sitePage(browser, new URL(siteUrl).origin));
  try {
    // The agent is told every error as the browser worded it, refused outside requests included: a CDN it relied on did not load.
    const watch = watchPageErrors(page);
    page.on('dialog', (d) => void d.accept().catch(() => undefined));
    const target = new URL(pagePath.startsWith('/') ? pagePath : '/' + pagePath, siteUrl).toString();
    const requests = watchRequests(page);
    let httpError: string[] = [];
    try {
      const response = await pageWork(() => page.goto(target, { waitUntil: 'load', timeout: 15_000 }));
      // Chromium logs a failed main document only as "Failed to load resource"; the status says more.
      httpError = response && response.status() >= 400 ? [`GET ${pagePath} answered HTTP ${response.status()}`] : [];
      await settle(page, requests, AFTER_LOAD);
    } finally {
      requests.stop();
    }
    // A script that starts looping after load would hold title() and the screenshot forever.
    const [title, png] = await pageWork(async () => [await responsive(page, page.title(), 'reading the title'), await responsive(page, shoot(page), 'taking the screenshot')] as const);
    return { title, png, consoleErrors: [...httpError, ...watch.errors.map((e) => e.message)] };
  } finally {
    // The close waits on the renderer's exit (about 130 ms); the agent's next step need not wait with it.
    void context.close().catch(() => undefined);
  }
}
