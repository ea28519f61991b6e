import type { Browser } from '@playwright/test';

export interface Rendering {
  title: string;
  png: Buffer;
  consoleErrors: string[];
}

const VIEWPORT = { width: 1280, height: 800 };

/**
 * Opens one path of a served site in a fresh context and photographs it, as a verify step shows the
 * agent. Requests to any other origin are aborted: the site under test is all the browser may reach.
 */
export async function renderPage(browser: Browser, siteUrl: string, pagePath: string): Promise<Rendering> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    const origin = new URL(siteUrl).origin;
    await context.route('**/*', (route) => (new URL(route.request().url()).origin === origin ? route.continue() : route.abort()));
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(e.message));
    page.on('dialog', (d) => void d.accept().catch(() => undefined));
    const target = new URL(pagePath.startsWith('/') ? pagePath : '/' + pagePath, siteUrl).toString();
    await page.goto(target, { waitUntil: 'load', timeout: 15_000 });
    await page.waitForTimeout(150);
    return { title: await page.title(), png: await page.screenshot({ type: 'png' }), consoleErrors };
  } finally {
    await context.close();
  }
}
