import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS } from '../config/settings.js';
import { labelPage } from '../vision/som.js';
import { composeLabels } from '../vision/som-overlay.js';
import { viewportPng } from '../site/screenshot.js';
import { dist, type Dist } from './dist.js';

/** A generated page of `n` interactive and text elements, as a busy agent-built page might be. */
export function busyPage(n: number): string {
  const items: string[] = [];
  for (let i = 0; i < n; i++) {
    const kind = i % 5;
    if (kind === 0) items.push(`<button id="b${i}">Action ${i}</button>`);
    else if (kind === 1) items.push(`<a href="#s${i}">Link ${i}</a>`);
    else if (kind === 2) items.push(`<input aria-label="Field ${i}" placeholder="Field ${i}">`);
    else if (kind === 3) items.push(`<select aria-label="Choice ${i}"><option>One</option><option>Two</option></select>`);
    else items.push(`<div role="button" tabindex="0" onclick="void 0">Tile ${i}</div>`);
  }
  return `<!doctype html><html><head><style>body{display:flex;flex-wrap:wrap;gap:4px;font:12px sans-serif}</style></head><body>${items.join('\n')}</body></html>`;
}

/**
 * Median and p95 of labelling (elements, hit tests, screenshot, overlay) after one warm-up, and of its two
 * fixed parts alone (the browser's screenshot, drawing the labels), so a miss says where the time goes.
 */
export async function somBench(executablePath: string | undefined, elements = 500, rounds = 15): Promise<{ elements: number; labelled: number; ms: Dist; screenshotMs: Dist; composeMs: Dist }> {
  const browser = await chromium.launch({ ...(executablePath ? { executablePath } : {}), args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.setContent(busyPage(elements));
    const times: number[] = [], shots: number[] = [], composes: number[] = [];
    let labelled = 0;
    for (let i = 0; i <= rounds; i++) {
      let t0 = performance.now();
      const l = await labelPage(page);
      const took = performance.now() - t0;
      labelled = l.elements.length;
      await l.dispose();
      t0 = performance.now();
      await viewportPng(page);
      const shot = performance.now() - t0;
      t0 = performance.now();
      composeLabels(l.screenshot, l.elements);
      const compose = performance.now() - t0;
      if (i > 0) {
        times.push(took);
        shots.push(shot);
        composes.push(compose);
      }
    }
    return { elements, labelled, ms: dist(times), screenshotMs: dist(shots), composeMs: dist(composes) };
  } finally {
    await browser.close();
  }
}
