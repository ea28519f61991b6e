import type { ElementHandle, Page } from '@playwright/test';
import { describeAction, type JudgeAction } from './actions.js';
import type { PageGuard } from './page-guard.js';
import type { Labelling } from './som.js';
import { pageWork } from '../site/page-gate.js';
import { LOAD_WAIT_MS, settle, watchRequests } from '../site/settle.js';
import { responsive } from '../site/unresponsive.js';

/**
 * Carries out one judge action on the page. The outcome is a fixed phrase made by the harness, never
 * page text (a Playwright error quotes the element's markup, which the site controls), because it goes
 * back to the model outside the untrusted block.
 */
export interface ActOutcome {
  ok: boolean;
  outcome: string;
}

const ACTION_TIMEOUT_MS = 2500;
const GOTO_TIMEOUT_MS = 10_000;

/**
 * The action and, when it led off the site, the way back are page work: each takes its turn at the gate
 * (site/page-gate.ts), with the load either starts, and with `limitMs` its time limit starts with its turn.
 * The wait for the page to come to rest after it (its requests, its quiet window) is not work and holds no
 * turn: other sessions' pages get the cores meanwhile.
 */
export async function perform(page: Page, action: JudgeAction, labels: Labelling, guard: PageGuard, limitMs?: number): Promise<ActOutcome> {
  const before = page.url();
  const requests = watchRequests(page);
  // A load the step started is the page's rendering work: inside the turn, as before.
  const withLoad = async <T>(w: () => Promise<T>): Promise<T> => {
    const done = await w();
    await page.waitForLoadState('load', { timeout: LOAD_WAIT_MS }).catch(() => {});
    return done;
  };
  const work = <T>(what: string, w: () => Promise<T>) => pageWork(() => (limitMs === undefined ? withLoad(w) : responsive(page, withLoad(w), what, limitMs)));
  try {
    const result = await work(describeAction(action), () =>
      run(page, action, labels, guard).catch((e: unknown): ActOutcome => {
        if (page.isClosed() || /has been closed|Target crashed|browser has disconnected/i.test(String(e))) throw e;
        return { ok: false, outcome: `failed (${classify(e)})` };
      }),
    );
    await settle(page, requests);
    // A link off the site was refused by the guard and left an error page: return to where the judge was.
    if (!guard.inSite(page.url())) {
      const back = guard.inSite(before) ? before : guard.resolve('/')!;
      await work('returning to the site', () => page.goto(back, { waitUntil: 'domcontentloaded', timeout: GOTO_TIMEOUT_MS }).catch(() => null));
      await settle(page, requests);
      return { ok: false, outcome: `${result.outcome}; it led off the site, which is blocked; returned to the previous page` };
    }
    // The new address goes to the model in the untrusted block (a site picks its own paths); here only the fact.
    const moved = page.url() !== before ? '; the page address changed' : '';
    return { ...result, outcome: result.outcome + moved };
  } finally {
    requests.stop();
  }
}

async function run(page: Page, a: JudgeAction, labels: Labelling, guard: PageGuard): Promise<ActOutcome> {
  const target = async (n: number): Promise<{ handle: ElementHandle; point: { x: number; y: number } } | null> => {
    const point = labels.points[n - 1];
    const handle = point ? await labels.handle(n) : null;
    return handle && point ? { handle, point } : null;
  };
  const missing = (n: number): ActOutcome => ({ ok: false, outcome: `there is no element [${n}] on this screenshot (1-${labels.elements.length})` });
  switch (a.kind) {
    case 'click': {
      const t = await target(a.element);
      if (!t) return missing(a.element);
      try {
        await t.handle.click({ timeout: ACTION_TIMEOUT_MS });
      } catch {
        // Playwright's checks can refuse an element a user can still click (an animation, a transparent cover); the box is what the judge saw.
        await page.mouse.click(t.point.x, t.point.y);
      }
      return { ok: true, outcome: 'clicked' };
    }
    case 'type': {
      const t = await target(a.element);
      if (!t) return missing(a.element);
      try {
        await t.handle.fill(a.text, { timeout: ACTION_TIMEOUT_MS });
      } catch {
        await page.mouse.click(t.point.x, t.point.y);
        await page.keyboard.type(a.text);
      }
      return { ok: true, outcome: 'typed' };
    }
    case 'select': {
      const t = await target(a.element);
      if (!t) return missing(a.element);
      const byLabel = await t.handle.selectOption({ label: a.option }, { timeout: ACTION_TIMEOUT_MS }).catch(() => null);
      if (byLabel?.length) return { ok: true, outcome: 'selected' };
      const byValue = await t.handle.selectOption(a.option, { timeout: ACTION_TIMEOUT_MS }).catch(() => null);
      return byValue?.length ? { ok: true, outcome: 'selected' } : { ok: false, outcome: 'failed (not a select, or no such option)' };
    }
    case 'press':
      await page.keyboard.press(a.key);
      return { ok: true, outcome: 'pressed' };
    case 'scroll': {
      const h = labels.viewport.height;
      await page.mouse.move(labels.viewport.width / 2, h / 2);
      await page.mouse.wheel(0, (a.direction === 'down' ? 1 : -1) * Math.round(h * 0.8));
      return { ok: true, outcome: 'scrolled' };
    }
    case 'wait':
      await page.waitForTimeout(1000);
      return { ok: true, outcome: 'waited 1 s' };
    case 'back': {
      const r = await page.goBack({ waitUntil: 'domcontentloaded', timeout: GOTO_TIMEOUT_MS });
      return r ? { ok: true, outcome: 'went back' } : { ok: false, outcome: 'there is no previous page' };
    }
    case 'goto': {
      const url = guard.resolve(a.path);
      if (!url) return { ok: false, outcome: 'refused: that address is outside the site under test' };
      const r = await page.goto(url, { waitUntil: 'domcontentloaded', timeout: GOTO_TIMEOUT_MS });
      return r && r.status() >= 400 ? { ok: false, outcome: `the site answered HTTP ${r.status()}` } : { ok: true, outcome: 'opened' };
    }
  }
}

function classify(e: unknown): string {
  const m = String((e as Error)?.message ?? e);
  if (/Unknown key/i.test(m)) return 'unknown key name';
  if (/timeout|Timeout/.test(m)) return 'the element did not respond in time';
  if (/not attached|detached/i.test(m)) return 'the element is gone from the page';
  if (/not an? (input|select|<select>)|cannot type|not editable/i.test(m)) return 'the element does not take that input';
  return 'the page refused the action';
}
