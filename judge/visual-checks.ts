import type { Page } from '@playwright/test';
import { siteErrorLines, watchPageErrors } from '../site/page-errors.js';
import { inPage } from '../site/in-page.js';
import { guardPage } from '../vision/page-guard.js';

/**
 * Deterministic checks of a final page for the visual bug rate: things a user sees as broken whatever
 * the task was. A case has a visual bug when any check finds something. They run on a fresh load of the
 * site root, because console errors are only seen while the page loads.
 */

export const VISUAL_CHECKS = ['horizontal-overflow', 'overlapping-text', 'broken-image', 'console-error', 'blank-page', 'unreachable'] as const;
export type VisualCheck = (typeof VISUAL_CHECKS)[number];

export interface VisualFinding {
  check: VisualCheck;
  detail: string;
}

export interface VisualReport {
  bug: boolean;
  findings: VisualFinding[];
  /** Requests to other hosts refused while loading (not a finding by themselves). */
  blockedRequests: number;
}

interface DomFindings {
  overflow: { scrollWidth: number; clientWidth: number } | null;
  overlaps: string[];
  brokenImages: string[];
  blank: boolean;
}

export async function checkVisual(page: Page, url: string): Promise<VisualReport> {
  const findings: VisualFinding[] = [];
  const guard = await guardPage(page, url);
  const watch = watchPageErrors(page);
  try {
    const res = await page.goto(guard.resolve('/')!, { waitUntil: 'load', timeout: 10_000 }).catch((e: unknown) => e as Error);
    if (res instanceof Error || (res && res.status() >= 400)) {
      const why = res instanceof Error ? res.message.split('\n')[0]! : `HTTP ${res.status()}`;
      return { bug: true, findings: [{ check: 'unreachable', detail: why }], blockedRequests: guard.blocked() };
    }
    await page.waitForTimeout(300);
    const dom = await page.evaluate(inPage(inspect), undefined);
    if (dom.overflow) findings.push({ check: 'horizontal-overflow', detail: `scrollWidth ${dom.overflow.scrollWidth} > viewport ${dom.overflow.clientWidth}` });
    for (const o of dom.overlaps) findings.push({ check: 'overlapping-text', detail: o });
    for (const b of dom.brokenImages) findings.push({ check: 'broken-image', detail: b });
    // A refused outside request is counted as blocked (siteErrorLines leaves it out): it is not the page's own error.
    for (const e of siteErrorLines(watch.errors, 200).slice(0, 10)) findings.push({ check: 'console-error', detail: e });
    if (dom.blank) findings.push({ check: 'blank-page', detail: 'no visible text, image or graphic' });
    return { bug: findings.length > 0, findings, blockedRequests: guard.blocked() };
  } finally {
    watch.stop();
    await guard.dispose();
  }
}

/** Runs in the page: self-contained. */
function inspect(): DomFindings {
  const de = document.documentElement;
  const overflow = de.scrollWidth > de.clientWidth + 1 ? { scrollWidth: de.scrollWidth, clientWidth: de.clientWidth } : null;

  // Text boxes, one per line of each visible text node, grouped by the element holding the text.
  const boxes: Array<{ owner: Element; r: DOMRect; text: string }> = [];
  const walker = document.createTreeWalker(document.body ?? de, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n && boxes.length < 600; n = walker.nextNode()) {
    const text = (n.textContent ?? '').trim();
    const owner = n.parentElement;
    if (!text || !owner || ['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'OPTION'].includes(owner.tagName)) continue;
    if (!owner.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    for (const r of Array.from(range.getClientRects())) if (r.width > 1 && r.height > 1) boxes.push({ owner, r, text: text.slice(0, 30) });
  }
  const overlaps: string[] = [];
  for (let i = 0; i < boxes.length && overlaps.length < 5; i++) {
    for (let j = i + 1; j < boxes.length && overlaps.length < 5; j++) {
      const a = boxes[i]!, b = boxes[j]!;
      if (a.owner === b.owner || a.owner.contains(b.owner) || b.owner.contains(a.owner)) continue;
      const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
      const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
      if (w <= 0 || h <= 0) continue;
      const smaller = Math.min(a.r.width * a.r.height, b.r.width * b.r.height);
      // Glyph boxes of neighbouring lines touch by a pixel or two; a third of the smaller box is real overlap.
      if (w * h > 20 && w * h > smaller / 3) overlaps.push(`${JSON.stringify(a.text)} overlaps ${JSON.stringify(b.text)}`);
    }
  }

  const brokenImages = Array.from(document.images)
    .filter((img) => img.checkVisibility() && img.complete && img.naturalWidth === 0)
    .slice(0, 10)
    .map((img) => `img ${JSON.stringify((img.getAttribute('src') ?? '').slice(0, 120))} did not load`);

  const media = Array.from(document.querySelectorAll('img, svg, canvas, video, picture, iframe, input, button')).some((el) => {
    const r = el.getBoundingClientRect();
    return r.width * r.height > 100 && el.checkVisibility();
  });
  const blank = !(document.body?.innerText ?? '').trim() && !media;
  return { overflow, overlaps, brokenImages, blank };
}
