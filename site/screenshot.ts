import type { CDPSession, Page, PageScreenshotOptions } from '@playwright/test';

const SHOT_TIMEOUT_MS = 10_000;
const sessions = new WeakMap<Page, Promise<CDPSession | null>>();

/**
 * The viewport as a PNG, as fast as the browser can give it. In Chromium at device scale 1 it asks
 * DevTools directly with `optimizeForSpeed` (a faster PNG encoder: about 60 against 100 ms for
 * Playwright's screenshot, measured); elsewhere, or if that fails, Playwright's screenshot. caret:
 * 'initial' because Playwright's caret hiding writes style attributes into the page under test. Even on a
 * page photographed once, the session's opening included, it is faster: 67-80 ms against 91-102 (2 cores).
 * `dpr` is the page's devicePixelRatio when the caller has read it already.
 */
export function viewportPng(page: Page, dpr?: number): Promise<Buffer> {
  return againIfTransient(() => capture(page, dpr), () => page.isClosed());
}

/** Playwright's screenshot, asked again while Chromium refuses it for a moment: every other picture the harness takes. */
export function pageScreenshot(page: Page, options: PageScreenshotOptions = {}): Promise<Buffer> {
  return againIfTransient(() => page.screenshot(options), () => page.isClosed());
}

/**
 * Chromium refuses a capture now and then on a loaded machine ("Unable to capture screenshot": the
 * compositor had no frame to give), then gives the next one. Once was enough to turn a judge session into
 * an error in a full test run on 2 cores; a few tries, a beat apart, before a refusal counts.
 */
const TRANSIENT = /Unable to capture screenshot/;
export const SHOT_TRIES = 3;

async function againIfTransient<T>(shoot: () => Promise<T>, gone: () => boolean, pauseMs = 150): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await shoot();
    } catch (e) {
      if (attempt >= SHOT_TRIES || !TRANSIENT.test(String(e)) || gone()) throw e;
      await new Promise((r) => setTimeout(r, pauseMs * attempt));
    }
  }
}

async function capture(page: Page, dpr: number | undefined): Promise<Buffer> {
  const fallback = () => page.screenshot({ scale: 'css', caret: 'initial', timeout: SHOT_TIMEOUT_MS });
  if ((dpr ?? (await page.evaluate(() => window.devicePixelRatio))) !== 1) return fallback();
  let session = sessions.get(page);
  if (!session) {
    session = page.context().newCDPSession(page).catch(() => null);
    sessions.set(page, session);
  }
  const cdp = await session;
  if (!cdp) return fallback();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`screenshot timed out after ${SHOT_TIMEOUT_MS} ms`)), SHOT_TIMEOUT_MS);
  });
  try {
    const shot = cdp.send('Page.captureScreenshot', { format: 'png', optimizeForSpeed: true, captureBeyondViewport: false });
    const { data } = await Promise.race([shot, timeout]);
    return Buffer.from(data, 'base64');
  } catch (e) {
    if (/timed out/.test(String(e))) throw e;
    sessions.delete(page);
    return fallback();
  } finally {
    clearTimeout(timer);
  }
}
