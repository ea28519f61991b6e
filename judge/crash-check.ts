import { sitePage } from '../site/fresh-page.js';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { siteErrorLines, watchPageErrors } from '../site/page-errors.js';
import { CrashFindingSchema, type CrashFinding } from '../protocol/annotations.js';
import { readCacheFile } from '../protocol/cache-file.js';
import { writeAtomic } from '../protocol/atomic-write.js';
import { assertBrowserAlive } from '../site/browser-lost.js';
import { isPageUnresponsive, responsive, unresponsiveEvidence } from '../site/unresponsive.js';
import { inPage } from '../site/in-page.js';
import { guardPage } from '../vision/page-guard.js';
import { pageWork } from '../site/page-gate.js';

export type { CrashFinding } from '../protocol/annotations.js';

/**
 * The paper profile's crash rule (config/profiles.ts `crashRule`): before any slot is judged, the
 * submitted site is opened once as the paper's harness opens it (wait for the DOM, then two seconds for
 * scripts to run) and is CRASHED when it logged a console error, threw an uncaught exception, or shows an
 * empty body. A crashed case fails every slot without asking a judge, so the verdict is the same on every
 * rerun and for every worker: the finding is kept beside the trajectory (crash.json).
 */


/** As the paper's harness: the DOM, then a fixed pause for scripts that run after it. */
const SETTLE_MS = 2000;
const LOAD_TIMEOUT_MS = 20_000;
const MAX_ERRORS = 10;

/** The evidence every slot of a crashed case carries. */
export function crashEvidence(f: CrashFinding): string {
  return `crashed on load: ${f.reason ?? 'unknown'}`;
}

/** The crash check of a served site, on a fresh page of its own. */
export async function checkCrash(browser: Browser, url: string): Promise<CrashFinding> {
  const { context, page } = await sitePage(browser, new URL(url).origin);
  try {
    return await pageWork(() => checkPage(page, url));
  } finally {
    await context.close().catch(() => undefined);
  }
}

export async function checkPage(page: Page, url: string): Promise<CrashFinding> {
  const guard = await guardPage(page, url);
  const watch = watchPageErrors(page);
  const errors = () => siteErrorLines(watch.errors, 300);
  const found = (reason: string): CrashFinding => ({ crashed: true, reason, errors: errors().slice(0, MAX_ERRORS) });
  try {
    const res = await page.goto(guard.resolve('/')!, { waitUntil: 'domcontentloaded', timeout: LOAD_TIMEOUT_MS }).catch((e: unknown) => e as Error);
    if (res instanceof Error) return found(isPageUnresponsive(res) ? unresponsiveEvidence(res, LOAD_TIMEOUT_MS) : `the page did not load: ${res.message.split('\n')[0]!.slice(0, 200)}`);
    if (res && res.status() >= 400) return found(`the page did not load: HTTP ${res.status()}`);
    await page.waitForTimeout(SETTLE_MS);
    const text = await responsive(page, page.evaluate(inPage(() => document.body?.innerText ?? ''), undefined), 'reading the body');
    const seen = errors();
    if (seen.length > 0) return found(seen[0]!);
    if (text.trim() === '') return found('empty body');
    return { crashed: false, errors: [] };
  } catch (e) {
    if (isPageUnresponsive(e)) return found(unresponsiveEvidence(e));
    throw e;
  } finally {
    watch.stop();
    await guard.dispose().catch(() => undefined);
  }
}

const inProcess = new Map<string, Promise<CrashFinding>>();

/** Once per episode: from crash.json beside the trajectory, else checked now and written there. */
export function getCrash(episodeDir: string, browser: Browser, url: string): Promise<CrashFinding> {
  let pending = inProcess.get(episodeDir);
  if (!pending) {
    pending = checkOnce(episodeDir, browser, url);
    inProcess.set(episodeDir, pending);
    pending.catch(() => inProcess.delete(episodeDir));
  }
  return pending;
}

async function checkOnce(episodeDir: string, browser: Browser, url: string): Promise<CrashFinding> {
  const file = path.join(episodeDir, 'crash.json');
  const cached = await readCacheFile(file, CrashFindingSchema);
  if (cached.kind === 'ok') return cached.data;
  if (cached.kind === 'corrupt') console.warn(`[iwb] ${cached.error}: not a crash check; checking the page again`);
  const finding = await checkCrash(browser, url);
  // A page that "did not load" because the browser died is not a crash of this site.
  if (finding.crashed) await assertBrowserAlive(browser, 'the crash rule checked the site');
  await writeAtomic(file, JSON.stringify(finding, null, 2));
  return finding;
}
