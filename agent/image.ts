import type { Browser } from '@playwright/test';
import { pageScreenshot } from '../site/screenshot.js';

/**
 * A screenshot shrunk and recompressed, as the paper's harness sends the audit's last frame to the
 * builder (at most 800x800, JPEG quality 60, low detail): a fraction of the tokens of a full PNG.
 * Done in the browser we already have, so no image library is needed: the PNG is drawn at the target
 * size in a blank page and that page is photographed as a JPEG.
 */
export async function shrinkToJpeg(browser: Browser, png: Buffer, maxSide = 800, quality = 60): Promise<{ jpeg: Buffer; width: number; height: number }> {
  const context = await browser.newContext({ viewport: { width: maxSide, height: maxSide } });
  try {
    const page = await context.newPage();
    // Nothing is fetched: the picture is inline and the page has no other content.
    await context.route('**/*', (route) => route.abort());
    await page.setContent(`<html><body style="margin:0"><img id="i" src="data:image/png;base64,${png.toString('base64')}"></body></html>`);
    const size = await page.evaluate(async (max) => {
      const img = document.getElementById('i') as HTMLImageElement;
      await img.decode();
      const scale = Math.min(1, max / img.naturalWidth, max / img.naturalHeight);
      const width = Math.max(1, Math.round(img.naturalWidth * scale));
      const height = Math.max(1, Math.round(img.naturalHeight * scale));
      img.style.width = `${width}px`;
      img.style.height = `${height}px`;
      img.style.display = 'block';
      return { width, height };
    }, maxSide);
    const jpeg = await pageScreenshot(page, { type: 'jpeg', quality, clip: { x: 0, y: 0, ...size } });
    return { jpeg, ...size };
  } finally {
    await context.close();
  }
}
