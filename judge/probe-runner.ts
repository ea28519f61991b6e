import type { Locator, Page } from '@playwright/test';
import type { Probe, ProbeAction, ProbeExpectation, ProbeItem, Target } from '../slots/probe-schema.js';
import { normaliseCss } from '../slots/css-values.js';
import type { JudgeStep } from './types.js';

export interface ProbeResult {
  passed: boolean;
  evidence: string;
  /** 0-based index into probe.steps of the item that failed. */
  failedAt?: number;
  steps: JudgeStep[];
}
/** timeoutMs bounds expectation polling; actions get 2.5x, since a busy machine is slow to make a control actionable. */
export interface ProbeOptions { timeoutMs?: number }

type Check = { ok: boolean; found: string };
type Role = Parameters<Page['getByRole']>[0];

class StepFailure extends Error {} // a readable reason instead of Playwright's call log

const GOTO_TIMEOUT_MS = 10_000;
// A page stuck in a busy loop never answers evaluate(); without a guard the whole probe would hang.
const STEP_GUARD_MS = 15_000; // plus the step's own timeout

/**
 * Runs a probe's items in order on the page. Site faults (missing element, unmet expectation, HTTP error)
 * give passed: false with evidence; only a dead page or browser throws, so a judge can call that errored.
 */
export async function runProbe(page: Page, baseUrl: string, probe: Probe, opts: ProbeOptions = {}): Promise<ProbeResult> {
  const timeoutMs = opts.timeoutMs ?? 2000, guardMs = STEP_GUARD_MS + timeoutMs * 2.5;
  const steps: JudgeStep[] = [];
  const checked: string[] = [];
  // Native dialogs block every later Playwright call on the page; a user would click them away.
  const onDialog = (d: { type(): string; accept(text?: string): Promise<void> }) => {
    steps.push({ action: 'dialog', detail: `${d.type()} accepted` });
    (d.type() === 'prompt' ? d.accept('test') : d.accept()).catch(() => {});
  };
  page.on('dialog', onDialog);
  try {
    const items: ProbeItem[] = probe.steps;
    // Probes are written for a fresh page; one that does not start with goto means "start at the site root".
    if (!items[0] || !('action' in items[0]) || items[0].action !== 'goto') {
      const r = await guarded(page, guardMs, () => goto(page, baseUrl, '/'));
      steps.push({ action: 'goto', detail: `/ (implicit) ${r ?? 'ok'}` });
      if (r !== null) return { passed: false, failedAt: 0, steps, evidence: `before step 1: goto /: ${r}` };
    }
    for (const [i, item] of items.entries()) {
      const label = describeItem(item);
      let failure: string | null;
      try {
        failure = await guarded(page, guardMs, () => ('action' in item ? act(page, baseUrl, item, timeoutMs * 2.5) : expectItem(page, item, timeoutMs, checked)));
      } catch (e) {
        if (isFatal(page, e)) throw e;
        failure = e instanceof StepFailure ? e.message : firstLine(e);
      }
      steps.push({ action: label, detail: failure ?? 'ok' });
      if (failure !== null) return { passed: false, failedAt: i, steps, evidence: `step ${i + 1}/${items.length} (${label}): ${failure}` };
    }
    return { passed: true, steps, evidence: `all ${items.length} steps passed: ${checked.join('; ').slice(0, 600)}` };
  } finally {
    page.off('dialog', onDialog);
  }
}

async function guarded<T>(page: Page, ms: number, run: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StepFailure(`the page did not respond within ${ms} ms`)), ms);
  });
  // A page closed under the step is the browser's failure, whatever the step itself returned or threw.
  const closed = (cause?: unknown) => new Error('Target page, context or browser has been closed', { cause });
  let result: T;
  try {
    result = await Promise.race([run(), guard]);
  } catch (e) {
    clearTimeout(timer);
    throw page.isClosed() ? closed(e) : e;
  }
  clearTimeout(timer);
  if (page.isClosed()) throw closed();
  return result;
}

/** A closed page or crashed browser is no verdict on the site; everything else is. */
const isFatal = (page: Page, e: unknown) =>
  page.isClosed() || /has been closed|Target crashed|browser has disconnected|Browser closed/i.test(String((e as Error)?.message ?? e));

const firstLine = (e: unknown) => String((e as Error)?.message ?? e).split('\n')[0]!.slice(0, 300);

/** Returns null on success, else why the page could not be reached. */
async function goto(page: Page, baseUrl: string, path: string): Promise<string | null> {
  const base = baseUrl.endsWith('/') ? baseUrl : baseUrl + '/';
  const url = new URL(path.replace(/^\/+/, ''), base).toString();
  const res = await page.goto(url, { waitUntil: 'domcontentloaded', timeout: GOTO_TIMEOUT_MS });
  await settle(page);
  return res && res.status() >= 400 ? `HTTP ${res.status()} for ${url}` : null;
}

// A stalled subresource (a CDN on a closed network) should not stop the probe; the DOM is already there.
const settle = (page: Page) => page.waitForLoadState('load', { timeout: 3000 }).catch(() => {});

/**
 * css next to role/label/placeholder is a scope, and text (as a substring) narrows the scope: "the Remove
 * button in the row with Lunch". exact then applies to the name only.
 */
export function locate(page: Page, t: Target): Locator {
  const scoped = t.css !== undefined && Boolean(t.role || t.label || t.placeholder);
  const root = scoped ? (t.text === undefined ? page.locator(t.css!) : page.locator(t.css!).filter({ hasText: t.text })) : page;
  let loc: Locator;
  if (t.role) loc = root.getByRole(t.role as Role, { ...(t.name !== undefined ? { name: t.name } : {}), exact: t.exact });
  else if (t.label) loc = root.getByLabel(t.label, { exact: t.exact });
  else if (t.placeholder) loc = root.getByPlaceholder(t.placeholder, { exact: t.exact });
  else if (t.css) loc = page.locator(t.css);
  else return page.getByText(t.text!, { exact: t.exact });
  if (scoped || t.text === undefined) return loc;
  return loc.filter({ hasText: t.exact ? new RegExp(`^\\s*${t.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`) : t.text });
}

export function describeTarget(t: Target): string {
  const parts: string[] = [];
  if (t.css) parts.push(`css=${JSON.stringify(t.css)}`);
  if (t.role) parts.push(`role=${t.role}${t.name !== undefined ? `[name=${JSON.stringify(t.name)}]` : ''}`);
  for (const k of ['label', 'placeholder', 'text'] as const) if (t[k] !== undefined) parts.push(`${k}=${JSON.stringify(t[k])}`);
  if (t.exact) parts.push('exact');
  if (t.nth !== undefined) parts.push(`nth=${t.nth}`);
  return parts.join(' ');
}

function describeItem(item: ProbeItem): string {
  if ('action' in item) {
    const a = item, extra = a.action === 'goto' ? a.path : a.action === 'wait' ? `${a.ms} ms` : a.action === 'viewport' ? `${a.width}x${a.height}` : '';
    const target = 'target' in a && a.target ? ' ' + describeTarget(a.target) : '';
    const value = 'value' in a ? ` ${JSON.stringify(a.value)}` : a.action === 'press' ? ` ${a.key}` : '';
    return `${a.action}${extra ? ' ' + extra : ''}${target}${value}`;
  }
  return `expect ${item.expect}${'target' in item ? ' ' + describeTarget(item.target) : ''}`;
}

/** Actions take the nth match, else the first visible one, so a hidden template copy never shadows the real control. */
function pick(page: Page, t: Target): Locator {
  const loc = locate(page, t);
  return t.nth !== undefined ? loc.nth(t.nth) : loc.filter({ visible: true }).first();
}

async function act(page: Page, baseUrl: string, a: ProbeAction, timeout: number): Promise<string | null> {
  try {
    switch (a.action) {
      case 'goto': return await goto(page, baseUrl, a.path);
      case 'reload': await page.reload({ waitUntil: 'domcontentloaded', timeout: GOTO_TIMEOUT_MS }); await settle(page); return null;
      case 'wait': await page.waitForTimeout(a.ms); return null;
      case 'viewport': await page.setViewportSize({ width: a.width, height: a.height }); return null;
      case 'click': await pick(page, a.target).click({ timeout }); return null;
      case 'fill': await pick(page, a.target).fill(a.value, { timeout }); return null;
      case 'select': await pick(page, a.target).selectOption(a.value, { timeout }); return null;
      case 'check': await pick(page, a.target).check({ timeout }); return null;
      case 'hover': await pick(page, a.target).hover({ timeout }); return null;
      case 'press': await (a.target ? pick(page, a.target).press(a.key, { timeout }) : page.keyboard.press(a.key)); return null;
    }
  } catch (e) {
    if (isFatal(page, e) || !('target' in a) || !a.target) throw e;
    throw new StepFailure(await explainTargetFailure(page, a.target, e));
  }
}

async function explainTargetFailure(page: Page, t: Target, e: unknown): Promise<string> {
  const loc = locate(page, t);
  const [total, visible] = await Promise.all([loc.count(), loc.filter({ visible: true }).count()]).catch(() => [-1, -1]);
  if (total === 0) return `target ${describeTarget(t)} not found on the page`;
  if (t.nth === undefined && visible === 0) return `target ${describeTarget(t)} matches ${total} element(s), none visible`;
  return `target ${describeTarget(t)} could not be used: ${firstLine(e)}`;
}

/** Polls like Playwright's expect: a page mid-navigation may throw once, which only means "not yet". */
async function poll(page: Page, timeoutMs: number, check: () => Promise<Check>): Promise<Check> {
  const deadline = Date.now() + timeoutMs;
  for (let i = 0; ; i++) {
    const r = await check().catch((e: unknown): Check => { if (isFatal(page, e)) throw e; return { ok: false, found: `error ${firstLine(e)}` }; });
    if (r.ok || Date.now() >= deadline) return r;
    await new Promise((res) => setTimeout(res, Math.min([50, 100, 250, 500][Math.min(i, 3)]!, Math.max(0, deadline - Date.now()))));
  }
}

/** What a user reads in an element: a form control's value, otherwise its rendered text. */
function readTexts(loc: Locator): Promise<string[]> {
  return loc.evaluateAll((els) =>
    els.slice(0, 50).map((el) => {
      if (el instanceof HTMLSelectElement) return el.selectedOptions[0]?.textContent ?? '';
      if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) return el.value;
      return (el as HTMLElement).innerText ?? el.textContent ?? '';
    }),
  );
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
const quote = (s: string) => JSON.stringify(s.length > 80 ? s.slice(0, 80) + '...' : s);

async function expectItem(page: Page, x: ProbeExpectation, timeoutMs: number, checked: string[]): Promise<string | null> {
  const { want, check } = expectation(page, x);
  const r = await poll(page, timeoutMs, check);
  if (r.ok) checked.push(`${want} (${r.found})`);
  return r.ok ? null : `expected ${want}, found ${r.found}`;
}

function expectation(page: Page, x: ProbeExpectation): { want: string; check: () => Promise<Check> } {
  switch (x.expect) {
    case 'visible':
    case 'hidden': {
      const loc = locate(page, x.target), wantVisible = x.expect === 'visible';
      return {
        want: `${describeTarget(x.target)} ${x.expect}`,
        check: async () => {
          const total = await loc.count();
          const visible = x.target.nth !== undefined ? Number(await loc.nth(x.target.nth).isVisible()) : await loc.filter({ visible: true }).count();
          const found = total === 0 ? 'no matching element' : `${total} matching, ${visible} visible`;
          return { ok: wantVisible ? visible > 0 : visible === 0, found };
        },
      };
    }
    case 'count': {
      // Counted as a user would: hidden by a filter or a closed panel is not there for them. An option has
      // no box until its select opens, yet the user can pick it, so it counts when its select is shown.
      const loc = locate(page, x.target);
      const bounds = [x.equals !== undefined ? `= ${x.equals}` : '', x.min !== undefined ? `>= ${x.min}` : '', x.max !== undefined ? `<= ${x.max}` : ''];
      return {
        want: `visible count of ${describeTarget(x.target)} ${bounds.filter(Boolean).join(' and ')}`,
        check: async () => {
          const n = await loc.evaluateAll((els) =>
            els.filter((el) => {
              const e = el.closest('select') ?? el, r = e.getBoundingClientRect();
              return getComputedStyle(e).visibility === 'visible' && r.width > 0 && r.height > 0;
            }).length,
          );
          const ok = (x.equals === undefined || n === x.equals) && (x.min === undefined || n >= x.min) && (x.max === undefined || n <= x.max);
          return { ok, found: `${n}` };
        },
      };
    }
    case 'text': {
      const base = locate(page, x.target);
      const loc = x.target.nth !== undefined ? base.nth(x.target.nth) : base.filter({ visible: true });
      // Case-insensitive like getByText, and immune to text-transform: a heading styled in capitals still reads the same.
      const re = x.matches !== undefined ? new RegExp(x.matches, 'i') : null;
      const test = (s: string) =>
        re ? re.test(s) : x.equals !== undefined ? s.toLowerCase() === squash(x.equals).toLowerCase() : s.toLowerCase().includes(squash(x.contains!).toLowerCase());
      const how = x.matches !== undefined ? `matching /${x.matches}/` : x.equals !== undefined ? `equal to ${quote(x.equals)}` : `containing ${quote(x.contains!)}`;
      return {
        want: `text of ${describeTarget(x.target)} ${x.not ? 'not ' : ''}${how}`,
        check: async () => {
          const texts = (await readTexts(loc)).map(squash);
          if (texts.length === 0) return { ok: false, found: 'no visible matching element' };
          const ok = x.not ? !texts.some(test) : texts.some(test);
          return { ok, found: texts.slice(0, 3).map(quote).join(', ') + (texts.length > 3 ? ` and ${texts.length - 3} more` : '') };
        },
      };
    }
    case 'css': {
      const base = locate(page, x.target);
      const wanted = (x.oneOf ?? [x.equals!]).map((v) => normaliseCss(x.property, v));
      return {
        want: `${x.property} of ${describeTarget(x.target)} ${wanted.length === 1 ? wanted[0] : `one of ${wanted.join(' | ')}`}`,
        check: async () => {
          const visible = base.filter({ visible: true });
          const loc = x.target.nth !== undefined ? base.nth(x.target.nth) : (await visible.count()) > 0 ? visible.first() : base.first();
          const values = await loc.evaluateAll((els, prop) => {
            const el = els[0];
            if (!el) return [];
            // text-decoration is not inherited but is painted through descendants, so an ancestor's line-through counts.
            if (/^text-decoration(-line)?$/.test(prop)) {
              for (let e: Element | null = el; e; e = e.parentElement) {
                const v = getComputedStyle(e).getPropertyValue('text-decoration-line');
                if (v && v !== 'none') return [v];
              }
              return ['none'];
            }
            return [getComputedStyle(el).getPropertyValue(prop)];
          }, x.property);
          if (values.length === 0) return { ok: false, found: 'no matching element' };
          const actual = normaliseCss(x.property, values[0]!);
          return { ok: wanted.includes(actual), found: actual || '(empty)' };
        },
      };
    }
    case 'title':
      return { want: `title containing ${quote(x.contains)}`, check: async () => ((t) => ({ ok: t.toLowerCase().includes(x.contains.toLowerCase()), found: quote(t) }))(await page.title()) };
    case 'url':
      return { want: `URL containing ${quote(x.contains)}`, check: async () => ({ ok: page.url().includes(x.contains), found: page.url() }) };
    case 'storage':
      return {
        want: `localStorage[${quote(x.key)}]${x.contains !== undefined ? ` containing ${quote(x.contains)}` : ' set'}`,
        check: async () => {
          const v = await page.evaluate((k) => { try { return window.localStorage.getItem(k); } catch { return null; } }, x.key);
          if (v === null) return { ok: false, found: 'no such key' };
          return { ok: x.contains === undefined || v.includes(x.contains), found: quote(v) };
        },
      };
    case 'no-horizontal-overflow':
      return {
        want: 'no horizontal overflow (scrollWidth <= innerWidth + 1)',
        check: async () => {
          const [sw, iw] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth] as const);
          return { ok: sw <= iw + 1, found: `scrollWidth ${sw}, innerWidth ${iw}` };
        },
      };
  }
}
