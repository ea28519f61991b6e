import type { ElementHandle, Frame, JSHandle, Page } from '@playwright/test';
import { viewportPng } from '../site/screenshot.js';
import { CLICK_TRACKER_SCRIPT } from './in-page.js';
import { inPage } from '../site/in-page.js';
import { collectCandidates, contentBox, pointsHit, type RawCandidate, type Rect } from './som-collect.js';
import { composeLabels } from './som-overlay.js';

/**
 * Set-of-Mark labelling: every interactive element a user could see and reach gets a number, a box on
 * the screenshot and one line of text, so a judge model can say "click 3".
 *
 * Why not Playwright's `page.ariaSnapshot({ mode: 'ai', boxes: true })` with `getByRef()`? Its refs are
 * stable and it descends into iframes, but it lists the accessibility tree: it misses the non-semantic
 * targets agent-built sites are full of (a `<div>` with a click listener, a `<span>` with a pointer
 * cursor), it lists elements that are scrolled away or hidden under a modal, and it does not hit-test.
 * A judge then clicks things a user could not. So the labeller walks the DOM itself (open shadow roots,
 * same-origin frames), hit-tests each candidate, and keeps one handle per frame on the candidates' array;
 * the ElementHandle of a number is made only when the judge acts on it (making 500 eagerly cost more
 * than the rest of the labelling).
 *
 * The page is never written to: the boxes are drawn on a copy of the screenshot in this process
 * (som-overlay.ts), so no label can stay behind, trip a MutationObserver or be read back by the site.
 * The only thing added to the judged page is the optional click-listener tracker (installClickTracker),
 * which keeps references and changes no DOM.
 */

export interface SomElement {
  /** 1-based label shown on the screenshot. */
  n: number;
  role: string;
  tag: string;
  name: string;
  value: string | null;
  disabled: boolean;
  /** Visible part, in CSS pixels of the top-level viewport. */
  box: Rect;
  /** 'main', or the frame the element lives in. */
  frame: string;
}

export interface Labelling {
  elements: SomElement[];
  /** The element labelled n, to act on; null if it is gone. Valid until the page changes. Call dispose() when done. */
  handle(n: number): Promise<ElementHandle | null>;
  /** Where element n was hit-tested (top-level coordinates): a click there reaches it. */
  points: Array<{ x: number; y: number }>;
  viewport: { width: number; height: number };
  screenshot: Buffer;
  labelled: Buffer;
  /** One line per element, for the model: `[3] button "Add task"`. */
  text: string;
  dispose(): Promise<void>;
}

export interface LabelOptions {
  /** Elements scanned per frame at most; a generated page with 100k nodes should not stall the judge. */
  maxElements?: number;
  /** Skip the labelled PNG (e.g. when only the list is needed). */
  compose?: boolean;
}

interface Found { raw: RawCandidate; list: JSHandle<{ elements: Element[] }>; index: number; offset: { x: number; y: number }; frame: string }
interface Link { frame: Frame; iframe: ElementHandle; offset: { x: number; y: number } }

/** Registers the click-listener tracker; call before the first navigation so it sees every listener. */
export async function installClickTracker(page: Page): Promise<void> {
  await page.addInitScript({ content: CLICK_TRACKER_SCRIPT });
}

export async function labelPage(page: Page, opts: LabelOptions = {}): Promise<Labelling> {
  const maxElements = opts.maxElements ?? 5000;
  const origin = safeOrigin(page.url());
  const found: Found[] = [];
  const toDispose: JSHandle[] = [];
  // The screenshot is taken by the browser while the renderer walks the DOM and this process reads the
  // candidates: the two only read the page, and one after the other they took a third longer. The viewport
  // is read first, in the same renderer queue as the walk, since its scale picks the screenshot's path.
  const view = page.evaluate(() => ({ width: document.documentElement.clientWidth || window.innerWidth, height: window.innerHeight, dpr: window.devicePixelRatio }));
  const shot = view.then((v) => viewportPng(page, v.dpr));
  // Settled either way, so a failed walk never leaves a rejection unhandled.
  shot.catch(() => {});
  await collectFrame(page.mainFrame(), { x: 0, y: 0 }, null, [], 'main');

  async function collectFrame(frame: Frame, offset: { x: number; y: number }, clipAbs: Rect | null, chain: Link[], label: string): Promise<void> {
    const clip = clipAbs ? { ...clipAbs, x: clipAbs.x - offset.x, y: clipAbs.y - offset.y } : null;
    let result;
    try {
      result = await frame.evaluateHandle(inPage(collectCandidates), { clip, maxElements });
    } catch {
      return; // a frame navigating away mid-walk has nothing to offer this round
    }
    // One JSON string: Playwright's structured serializer took 85 ms for 500 candidates, this takes 5.
    const raws = JSON.parse(await result.evaluate((r) => JSON.stringify(r.candidates))) as RawCandidate[];
    toDispose.push(result);
    let keep = raws.map(() => true);
    // An element in a frame is reachable only if every enclosing iframe is itself uncovered at that point.
    for (const link of chain) {
      const points = raws.map((r) => ({ x: r.point.x + offset.x - link.offset.x, y: r.point.y + offset.y - link.offset.y }));
      const hits = await link.frame.evaluate(inPage(pointsHit), { frameElement: link.iframe, points }).catch(() => points.map(() => false));
      keep = keep.map((k, i) => k && hits[i] === true);
    }
    const list = result as JSHandle<{ elements: Element[] }>;
    raws.forEach((raw, i) => {
      if (keep[i]) found.push({ raw, list, index: i, offset, frame: label });
    });

    for (const child of frame.childFrames()) {
      if (!sameOrigin(child.url(), origin)) continue;
      const iframe = await child.frameElement().catch(() => null);
      if (!iframe) continue;
      const box = await iframe.evaluate(inPage(contentBox)).catch(() => null);
      if (!box || box.width < 1 || box.height < 1) {
        toDispose.push(iframe);
        continue;
      }
      const abs = { ...box, x: box.x + offset.x, y: box.y + offset.y };
      const childClip = clipAbs ? intersect(abs, clipAbs) : abs;
      if (!childClip) {
        toDispose.push(iframe);
        continue;
      }
      toDispose.push(iframe);
      const name = (await iframe.evaluate((e) => (e as Element).getAttribute('name') || (e as Element).id).catch(() => '')) || pathOf(child.url());
      await collectFrame(child, { x: abs.x, y: abs.y }, childClip, [...chain, { frame, iframe, offset }], `iframe ${name}`);
    }
  }

  // Reading order, so numbers run the way a user scans the page.
  const row = (f: Found) => Math.round((f.raw.point.y + f.offset.y) / 16);
  found.sort((a, b) => row(a) - row(b) || a.raw.box.x + a.offset.x - (b.raw.box.x + b.offset.x));
  const elements: SomElement[] = found.map((f, i) => ({
    n: i + 1,
    role: f.raw.role,
    tag: f.raw.tag,
    name: f.raw.name,
    value: f.raw.value,
    disabled: f.raw.disabled,
    box: round({ ...f.raw.box, x: f.raw.box.x + f.offset.x, y: f.raw.box.y + f.offset.y }),
    frame: f.frame,
  }));
  const points = found.map((f) => ({ x: f.raw.point.x + f.offset.x, y: f.raw.point.y + f.offset.y }));
  const { dpr: _dpr, ...viewport } = await view;
  const screenshot = await shot;
  const labelled = opts.compose === false ? screenshot : composeLabels(screenshot, elements);
  const made: ElementHandle[] = [];
  return {
    elements,
    async handle(n) {
      const f = found[n - 1];
      if (!f) return null;
      const h = (await f.list.evaluateHandle((r, i) => r.elements[i], f.index).catch(() => null))?.asElement() ?? null;
      if (h) made.push(h);
      return h;
    },
    points,
    viewport,
    screenshot,
    labelled,
    text: elements.map(describeElement).join('\n'),
    dispose: async () => {
      await Promise.all([...made, ...toDispose].map((h) => h.dispose().catch(() => {})));
    },
  };
}

/** `[3] button "Add task" value="x" (disabled) in iframe cart`: number, role or tag, name, value. */
export function describeElement(e: SomElement): string {
  const parts = [`[${e.n}]`, e.role || e.tag];
  if (e.role && e.role !== e.tag && !['a', 'button', 'select', 'textarea', 'summary'].includes(e.tag)) parts.push(`<${e.tag}>`);
  parts.push(JSON.stringify(e.name));
  if (e.value !== null) parts.push(`value=${JSON.stringify(e.value)}`);
  if (e.disabled) parts.push('(disabled)');
  if (e.frame !== 'main') parts.push(`in ${e.frame}`);
  return parts.join(' ');
}

function intersect(a: Rect, b: Rect): Rect | null {
  const x = Math.max(a.x, b.x), y = Math.max(a.y, b.y);
  const w = Math.min(a.x + a.width, b.x + b.width) - x, h = Math.min(a.y + a.height, b.y + b.height) - y;
  return w >= 1 && h >= 1 ? { x, y, width: w, height: h } : null;
}

const round = (r: Rect): Rect => ({ x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width), height: Math.round(r.height) });

function safeOrigin(url: string): string | null {
  try {
    const o = new URL(url).origin;
    return o === 'null' ? null : o;
  } catch {
    return null;
  }
}

/** about:blank and srcdoc frames inherit their parent's origin; anything else must match it. */
function sameOrigin(url: string, origin: string | null): boolean {
  if (url === 'about:blank' || url === 'about:srcdoc' || url === '') return true;
  return origin !== null && safeOrigin(url) === origin;
}

function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return u.protocol === 'about:' ? url : u.pathname;
  } catch {
    return url;
  }
}
