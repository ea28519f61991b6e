import type { Page } from '@playwright/test';
import { pageWork } from '../site/page-gate.js';
import { AFTER_LOAD, LOAD_WAIT_MS, settle, watchRequests } from '../site/settle.js';
import { PAGE_RESPONSE_MS } from '../site/unresponsive.js';
import type { JudgeAction } from '../vision/actions.js';
import { guardPage, type PageGuard } from '../vision/page-guard.js';
import { describeElement, installClickTracker, type Labelling } from '../vision/som.js';
import type { PageView } from './prompt.js';

/** The page side of a judge session (judge/session-loop.ts): opening the site, reading a turn's view. */

/** An action may wait on its own timeouts (a click, a navigation) before the page counts as hung. */
export const ACTION_LIMIT_MS = PAGE_RESPONSE_MS * 2;

const VISIBLE_TEXT_LIMIT = 4000;

export async function readView(page: Page, labels: Labelling, guard: PageGuard): Promise<PageView> {
  const [title, visibleText] = await Promise.all([
    page.title().catch(() => ''),
    page.evaluate(() => document.body?.innerText ?? '').catch(() => ''),
  ]);
  const url = new URL(page.url());
  const text = visibleText.replace(/\n{3,}/g, '\n\n').trim();
  return {
    path: url.pathname + url.search + url.hash,
    title,
    elements: labels.text,
    visibleText: text.length > VISIBLE_TEXT_LIMIT ? text.slice(0, VISIBLE_TEXT_LIMIT) + ' […]' : text,
    dialogs: guard.takeDialogs(),
    blockedHosts: guard.blockedHosts(),
  };
}

export function targetOf(a: JudgeAction, labels: Labelling): string {
  if (a.kind !== 'click' && a.kind !== 'type' && a.kind !== 'select') return '';
  const e = labels.elements[a.element - 1];
  return e ? ` on ${describeElement(e).replace(/^\[\d+\] /, '')}` : '';
}

export const firstLine = (e: unknown) => String((e as Error)?.message ?? e).split('\n')[0]!.slice(0, 300);

/**
 * The judged page at the site's root, guarded to the site, with the click tracker in place before any
 * script runs, at rest (site/settle.ts). A page still loading after 3 s is judged as far as it got.
 */
export async function openForJudging(page: Page, siteUrl: string): Promise<PageGuard> {
  const requests = watchRequests(page);
  try {
    // Opening is page work and takes its turn (site/page-gate.ts); the wait for rest after it holds none.
    const guard = await pageWork(async () => {
      const g = await guardPage(page, siteUrl);
      try {
        await installClickTracker(page);
        await page.goto(g.resolve('/')!, { waitUntil: 'domcontentloaded', timeout: 10_000 });
        // The load is the page's rendering work: inside the turn, so that many sessions opening at once load a few pages at a time.
        await page.waitForLoadState('load', { timeout: LOAD_WAIT_MS }).catch(() => {});
      } catch (e) {
        // The caller gets no guard to release: release it here.
        await g.dispose().catch(() => undefined);
        throw e;
      }
      return g;
    });
    // Then what its scripts fetch: the first look is not taken before the page's data.
    await settle(page, requests, AFTER_LOAD);
    return guard;
  } finally {
    requests.stop();
  }
}
