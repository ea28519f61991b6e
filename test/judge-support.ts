import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { serveStatic, type ServedSite } from '../site/site-server.js';
import { CHROMIUM_ARGS, readSettings } from '../config/settings.js';
import type { SiteUnderTest } from '../judge/types.js';
import type { Case, Slot, WeightedSlot } from '../slots/schema.js';

/** Shared set-up for the judge tests: one browser, throw-away site folders, hand-built cases. */

export async function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: readSettings(process.env).chromium, args: CHROMIUM_ARGS });
}

export interface TempSite extends ServedSite {
  dispose(): Promise<void>;
}

export async function tempSite(files: Record<string, string>): Promise<TempSite> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-judge-'));
  for (const [name, body] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await fs.writeFile(path.join(dir, name), body);
  }
  const served = await serveStatic(dir);
  return {
    ...served,
    async dispose() {
      await served.close();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

export function slot(id: string, extra: Partial<Slot> = {}): WeightedSlot {
  return {
    id,
    task: `check ${id}`,
    expectedResult: `${id} works`,
    targetComponent: 'page',
    assertionType: 'POSITIVE',
    cTech: 1,
    weight: 1,
    ...extra,
  };
}

export function makeCase(slots: WeightedSlot[], gold = 'Build a small to-do list page with an Add button.'): Case {
  return {
    id: 'demo_P-MIN',
    taskId: 'demo',
    persona: 'P-MIN',
    instruction: gold,
    difficulty: 'easy',
    difficultySource: 'stored',
    slots,
    task: { id: 'demo', title: 'Demo', category: 'User Interaction', goldInstruction: gold, slots, personas: {}, source: 'test' },
  };
}

/** A fresh page on the site, as the fixture hands it to a judge. */
export async function siteUnderTest(browser: Browser, site: ServedSite, c: Case, withRoot = true): Promise<SiteUnderTest & { close(): Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 1000, height: 700 } });
  const page = await context.newPage();
  return { url: site.url, page, browser, case: c, ...(withRoot ? { root: site.root } : {}), close: () => context.close() };
}
