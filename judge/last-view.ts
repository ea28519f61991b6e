import type { Page } from '@playwright/test';

/**
 * The screenshot a judge session last looked at, while the page is still as it was then: the session
 * records it with each labelling and forgets it before each action. A slot that fails keeps a picture of
 * the page as the judge left it (fixtures/judge-case.ts); this is that picture without a second capture,
 * which cost about a tenth of a failed slot's time. Absent when the judge acted afterwards, or never looked.
 */
const seen = new WeakMap<Page, Buffer>();

export function sawPage(page: Page, screenshot: Buffer): void {
  seen.set(page, screenshot);
}

export function actsOnPage(page: Page): void {
  seen.delete(page);
}

export function lastSeen(page: Page): Buffer | undefined {
  return seen.get(page);
}
