import type { Browser, BrowserContext, Page } from '@playwright/test';
import type { Rect } from './som-collect.js';

/**
 * Draws the Set-of-Mark boxes onto a copy of a screenshot, in a blank page of its own context, so the
 * judged page is never touched. Chromium does the drawing (text and all), which keeps the project free of
 * image libraries. A compositor closed under us (a test runner closing contexts) is reopened.
 */

const PALETTE = ['#e6194b', '#3cb44b', '#4363d8', '#f58231', '#911eb4', '#008080', '#f032e6', '#9a6324', '#800000', '#000075'];

interface Compositor { page: Promise<Page>; queue: Promise<unknown> }
const compositors = new WeakMap<Browser, Compositor>();

export interface Mark { n: number; box: Rect }

/** PNG width and height from the IHDR chunk. */
export function pngSize(png: Buffer): { width: number; height: number } {
  if (png.length < 24 || png.readUInt32BE(12) !== 0x49484452) throw new Error('not a PNG screenshot');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/**
 * One compositor page per browser, reused and used one call at a time: opening a page per screenshot
 * cost more than the rest of the labelling together.
 */
export async function composeLabels(browser: Browser | null, png: Buffer, marks: Mark[]): Promise<Buffer> {
  if (marks.length === 0) return png;
  if (!browser) throw new Error('labelled screenshots need a browser (not a persistent context)');
  const { width, height } = pngSize(png);
  let c = compositors.get(browser);
  if (!c) {
    c = { page: openCompositor(browser), queue: Promise.resolve() };
    compositors.set(browser, c);
  }
  const comp = c;
  const run = comp.queue.then(async () => {
    let page = await comp.page;
    if (page.isClosed()) page = await (comp.page = openCompositor(browser));
    await page.setViewportSize({ width, height });
    await page.setContent(overlayHtml(png, marks, width, height), { waitUntil: 'load' });
    return page.screenshot({ clip: { x: 0, y: 0, width, height }, timeout: 10_000 });
  });
  comp.queue = run.catch(() => {});
  return run;
}

async function openCompositor(browser: Browser): Promise<Page> {
  const ctx: BrowserContext = await browser.newContext({ deviceScaleFactor: 1, javaScriptEnabled: false });
  // The overlay is self-contained (a data: image); nothing it does should reach a network.
  await ctx.route('**/*', (r) => r.abort());
  return ctx.newPage();
}

function overlayHtml(png: Buffer, marks: Mark[], width: number, height: number): string {
  const boxes = marks
    .map((m) => {
      const colour = PALETTE[(m.n - 1) % PALETTE.length]!;
      const { x, y, width: w, height: h } = m.box;
      // The number sits above the box when there is room, else inside its top-left corner.
      const tagTop = y >= 16 ? -16 : 0;
      return (
        `<div class="b" style="left:${x}px;top:${y}px;width:${Math.max(w - 4, 0)}px;height:${Math.max(h - 4, 0)}px;border-color:${colour}">` +
        `<span style="top:${tagTop}px;background:${colour}">${m.n}</span></div>`
      );
    })
    .join('');
  return `<!doctype html><html><head><style>
html,body{margin:0;padding:0;width:${width}px;height:${height}px;overflow:hidden}
img{position:absolute;left:0;top:0;width:${width}px;height:${height}px}
.b{position:absolute;border:2px solid;box-sizing:content-box}
.b span{position:absolute;left:-2px;font:bold 12px/16px sans-serif;color:#fff;padding:0 3px;white-space:nowrap}
</style></head><body><img src="data:image/png;base64,${png.toString('base64')}">${boxes}</body></html>`;
}
