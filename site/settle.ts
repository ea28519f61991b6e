import type { Page, Request } from '@playwright/test';
import { inPage } from './in-page.js';

/**
 * Waiting for a page to come to rest after an action, instead of a fixed beat. A fixed 200 ms beat raced the
 * site: a click that asked the site's own server and drew the answer 300 ms later was judged on the page
 * before the answer (a fail the agent did not earn), and a page that was done at once waited all the same.
 * At rest means: none of the page's requests since the action is in flight, and then nothing in the document
 * changed and no finite animation ran for `quietMs`. A page that never rests (a ticking clock, a stream held
 * open) is taken as it is at `maxMs`. A site can only delay its own judging this way, never skip it: the
 * judge still reads the page it is shown, and the wait is bounded.
 */
export interface SettleOptions {
  /** Nothing changed for this long: at rest. Never less than this after the call, whatever the page's clock says. */
  quietMs: number;
  /** The longest wait for rest. */
  maxMs: number;
}

/**
 * The longest a look waits for a load that a navigation or an action started. The caller waits for it inside its
 * turn of page work (site/page-gate.ts: loading is the page's rendering), before settle, which waits for none.
 */
export const LOAD_WAIT_MS = 3000;

/**
 * After a judge's action. The fixed beat was a load of up to 3 s, then 200 ms: a quiet window as long sees
 * whatever that beat saw (a change within 200 ms of the action restarts the window) and more, so no verdict
 * is judged on less than before. A script's own timer of more than 200 ms ("loading..." faked with
 * setTimeout) is not waited for, as it was not before; the judge can still ask to wait.
 */
export const AFTER_ACTION: SettleOptions = { quietMs: 200, maxMs: 1500 };

/**
 * After a page's load, before it is shown (an agent's verify render, a judge session's first look). `load`
 * does not wait for what a script fetches once it runs (a site drawing its items from its own JSON): those
 * requests are waited for now, where a fixed 150 ms beat (verify) or nothing (the judge's first look) raced
 * them. The quiet window is shorter than after an action: a page at load has run its scripts already.
 */
export const AFTER_LOAD: SettleOptions = { quietMs: 100, maxMs: 1500 };

/** The page's requests in flight from the moment of the call: start it before the action that may send some. */
export interface RequestWatch {
  inFlight(): number;
  /** Resolves when none is in flight, or after `ms`. */
  idle(ms: number): Promise<void>;
  stop(): void;
}

export function watchRequests(page: Page): RequestWatch {
  const open = new Set<Request>();
  let waiters: Array<() => void> = [];
  const started = (r: Request) => void open.add(r);
  const ended = (r: Request) => {
    open.delete(r);
    if (open.size === 0) for (const w of waiters.splice(0)) w();
  };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  return {
    inFlight: () => open.size,
    idle(ms) {
      if (open.size === 0) return Promise.resolve();
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w !== done);
          resolve();
        }, ms);
        const done = () => {
          clearTimeout(timer);
          resolve();
        };
        waiters.push(done);
      });
    },
    stop() {
      page.off('request', started);
      page.off('requestfinished', ended);
      page.off('requestfailed', ended);
      for (const w of waiters.splice(0)) w();
    },
  };
}

/** In the page: resolves true once the document has not changed and no finite animation ran for quietMs; false at maxMs. */
function quietInPage({ quietMs, maxMs }: { quietMs: number; maxMs: number }): Promise<boolean> {
  return new Promise((resolve) => {
    const start = performance.now();
    let last = start;
    const observer = new MutationObserver(() => void (last = performance.now()));
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    const moving = () =>
      document.getAnimations().some((a) => a.playState === 'running' && Number.isFinite(Number(a.effect?.getComputedTiming().endTime)));
    // Wakes when the quiet window could end, or sooner while something moves (an animation is not a mutation).
    const tick = () => {
      const now = performance.now();
      const animating = moving();
      if (animating) last = now;
      const done = now - last >= quietMs ? true : now - start >= maxMs ? false : null;
      if (done === null) return void setTimeout(tick, animating ? 40 : Math.max(10, quietMs - (now - last)));
      observer.disconnect();
      resolve(done);
    };
    setTimeout(tick, quietMs);
  });
}

const QUIET_IN_PAGE = inPage(quietInPage);

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));

/**
 * Waits until the page is at rest (see above) or `maxMs` has passed; never throws. The quiet window is timed in
 * the page, whose clock and timers the site can replace: the window's length is also kept here, so a page that
 * fakes its clock to end the wait at once is still looked at no sooner than before.
 */
export async function settle(page: Page, requests: RequestWatch, opts: SettleOptions = AFTER_ACTION): Promise<void> {
  const started = Date.now();
  await untilAtRest(page, requests, opts, started + opts.maxMs);
  await sleep(started + opts.quietMs - Date.now());
}

async function untilAtRest(page: Page, requests: RequestWatch, opts: SettleOptions, deadline: number): Promise<void> {
  const left = () => deadline - Date.now();
  while (left() > 0 && !page.isClosed()) {
    await requests.idle(left());
    if (left() <= 0) return;
    const wait = left();
    // The page's own loop may be stuck: the race keeps this wait bounded; navigating away rejects, and we look again.
    let timer: NodeJS.Timeout | undefined;
    const quiet = await Promise.race([
      page.evaluate(QUIET_IN_PAGE, { quietMs: opts.quietMs, maxMs: wait }),
      new Promise<boolean>((r) => (timer = setTimeout(() => r(false), wait + 50))),
    ])
      .catch(() => null)
      .finally(() => clearTimeout(timer));
    if (quiet === false) return;
    if (quiet === true && requests.inFlight() === 0) return;
    // Between documents, or a page that breaks the observer: let a load land, and never spin.
    if (quiet === null) await Promise.all([page.waitForLoadState('load', { timeout: Math.max(1, left()) }).catch(() => {}), sleep(20)]);
  }
}
