import { promises as fs } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { serveStatic, type ServedSite } from '../site/site-server.js';
import { requireChromium } from '../config/chromium.js';
import { readSettings } from '../config/settings.js';
import { browserSandbox, chromiumLaunchOptions } from '../config/chromium-sandbox.js';
import { guardPage } from '../vision/page-guard.js';
import { installClickTracker, labelPage } from '../vision/som.js';
import { parseCommand, usageOf } from './commands.js';
import { cliEnv, UsageError, type CliIo } from './io.js';

const USAGE = usageOf('som');

/**
 * `iwb som`: what the judge model would see on a page - the numbered elements and the labelled
 * screenshot. A file is served from its folder (so its relative links work); only that origin is reached.
 */
export async function somCommand(args: string[], io: CliIo): Promise<number> {
  const { positional, flags } = parseCommand(args, 'som');
  const [target] = positional;
  if (!target || positional.length > 1) throw new UsageError(USAGE);
  const out = path.resolve(String(flags.get('out') ?? 'labelled.png'));
  const vp = /^(\d+)x(\d+)$/.exec(String(flags.get('viewport') ?? '1280x800'));
  if (!vp) throw new UsageError(`--viewport must look like 1280x800\n${USAGE}`);
  const viewport = { width: Number(vp[1]), height: Number(vp[2]) };

  let served: ServedSite | undefined;
  let url: string;
  if (/^https?:\/\//i.test(target)) url = target;
  else {
    const file = path.resolve(target);
    const stat = await fs.stat(file).catch(() => null);
    if (!stat?.isFile()) throw new UsageError(`${target}: no such file (give an http(s) URL or an .html file)\n${USAGE}`);
    served = await serveStatic(path.dirname(file));
    url = `${served.url}/${encodeURIComponent(path.basename(file))}`;
  }

  // The page may be an agent's: Chromium keeps its own sandbox wherever a judged run's would (IWB_CHROMIUM_SANDBOX).
  const settings = readSettings(cliEnv());
  const browser = await chromium.launch(chromiumLaunchOptions(requireChromium(settings.chromium).path, browserSandbox(settings.chromiumSandbox)));
  try {
    const page = await browser.newPage({ viewport });
    const guard = await guardPage(page, new URL(url).origin);
    await installClickTracker(page);
    // An unreachable address is the user's to fix: one line, not Playwright's call log.
    const res = await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 15_000 }).catch((e: Error) => {
      throw new UsageError(`cannot open ${url}: ${e.message.split('\n')[0]!.replace(/^page\.goto: /, '')}`);
    });
    await page.waitForLoadState('load', { timeout: 3000 }).catch(() => {});
    const labels = await labelPage(page);
    await fs.writeFile(out, labels.labelled);
    const status = res?.status() ?? 0;
    if (flags.has('json')) {
      io.out(JSON.stringify({ url, status, viewport, out, blockedRequests: guard.blocked(), elements: labels.elements }, null, 2));
    } else {
      io.out(labels.elements.map((e) => `${labels.text.split('\n')[e.n - 1]}  box=${e.box.x},${e.box.y},${e.box.width}x${e.box.height}`).join('\n') || '(no interactive elements in view)');
      io.out(`${labels.elements.length} elements; labelled screenshot: ${out}${guard.blocked() ? `; ${guard.blocked()} outside request(s) blocked` : ''}`);
    }
    await labels.dispose();
    return status >= 400 ? 1 : 0;
  } finally {
    await browser.close();
    await served?.close();
  }
}
