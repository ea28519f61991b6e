import type { Page } from '@playwright/test';

/**
 * A page the agent built that stops answering: a script that loops forever, allocates until its renderer
 * dies, or a load that never ends. That is the site's failure, measured as one (a slot fails with this as
 * its evidence), never the harness's; and it must not hold a worker longer than the limit.
 */
export class PageUnresponsive extends Error {
  override name = 'PageUnresponsive';
}

/** The judge step recorded when the page hung or crashed: the verdict cache keeps no verdict with it. */
export const PAGE_UNRESPONSIVE_STEP = 'page unresponsive';

/** How long any one page operation (navigation, labelling, reading, a screenshot) may take. */
export const PAGE_RESPONSE_MS = 10_000;

/** Playwright's own timeouts and a crashed renderer say the same thing about the page. */
export function isPageUnresponsive(e: unknown): boolean {
  if (e instanceof PageUnresponsive) return true;
  if (!(e instanceof Error)) return false;
  return e.name === 'TimeoutError' || /Target crashed|Page crashed|page has been closed after a crash/i.test(e.message);
}

export function unresponsiveEvidence(e: unknown, ms = PAGE_RESPONSE_MS): string {
  const detail = e instanceof Error ? e.message.split('\n')[0]!.slice(0, 200) : String(e);
  return /crash/i.test(detail) ? `the page crashed (its renderer died, e.g. out of memory): ${detail}` : `the page did not respond in ${Math.round(ms / 1000)} s: ${detail}`;
}

/** `work` within `ms`, or PageUnresponsive; a crash of the page's renderer ends the wait at once. */
export async function responsive<T>(page: Page, work: Promise<T>, what: string, ms = PAGE_RESPONSE_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onCrash: (() => void) | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PageUnresponsive(`${what} took longer than ${Math.round(ms / 1000)} s`)), ms);
    onCrash = () => reject(new PageUnresponsive(`the page crashed during ${what}`));
    page.once('crash', onCrash);
  });
  // The abandoned operation settles later, or never; its rejection must not surface as unhandled.
  work.catch(() => undefined);
  try {
    return await Promise.race([work, limit]);
  } finally {
    clearTimeout(timer);
    if (onCrash) page.off('crash', onCrash);
  }
}
