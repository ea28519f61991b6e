import type { ConsoleMessage, Page } from '@playwright/test';

/** One error a page reported while watched: a console error or an exception its scripts did not catch. */
export interface PageError {
  kind: 'console' | 'uncaught';
  /** The console text, or the exception's message (all its lines). */
  message: string;
  /** The exception's class (`TypeError`); empty for console errors. */
  name: string;
  /** A request the harness refused (an outside host): the sandbox's doing, not the site's own error. */
  blockedByHarness: boolean;
}

export interface PageErrorWatch {
  /** Every error so far, in order; it keeps growing until `stop()`. */
  readonly errors: PageError[];
  stop(): void;
}

/**
 * Listens for a page's errors. One collector for every look at an agent's site (a verify render, the crash
 * check, the visual checks), so each sees the same errors and only words them its own way.
 */
export function watchPageErrors(page: Page): PageErrorWatch {
  const errors: PageError[] = [];
  const onConsole = (m: ConsoleMessage) => {
    if (m.type() === 'error') errors.push({ kind: 'console', message: m.text(), name: '', blockedByHarness: /ERR_BLOCKED_BY_CLIENT/.test(m.text()) });
  };
  const onError = (e: Error) => errors.push({ kind: 'uncaught', message: e.message, name: e.name, blockedByHarness: false });
  page.on('console', onConsole);
  page.on('pageerror', onError);
  return {
    errors,
    stop() {
      page.off('console', onConsole);
      page.off('pageerror', onError);
    },
  };
}

/** The site's own errors, one line each, at most `max` characters: what a judge's finding quotes. */
export function siteErrorLines(errors: readonly PageError[], max: number): string[] {
  return errors
    .filter((e) => !e.blockedByHarness)
    .map((e) => (e.kind === 'console' ? e.message.slice(0, max) : `uncaught ${e.name}: ${e.message.split('\n')[0]!.slice(0, max)}`));
}
