import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

/**
 * Which Chromium a run uses, in order: IWB_CHROMIUM; Debian's headless shell (the old headless mode,
 * about a third of full Chromium's CPU per page, which decides a run's length on a small machine);
 * Debian's Chromium; the browser `npx playwright install chromium` put in Playwright's own cache, asked
 * of Playwright itself (its path differs by OS and Playwright version, so it is never written here).
 */
export const DEBIAN_CHROMIUM = [
  { path: '/usr/bin/chromium-headless-shell', source: 'debian-headless-shell' },
  { path: '/usr/bin/chromium', source: 'debian-chromium' },
] as const;

export type ChromiumSource = 'IWB_CHROMIUM' | (typeof DEBIAN_CHROMIUM)[number]['source'] | 'playwright';

export interface ChromiumChoice {
  path: string;
  source: ChromiumSource;
}

/** What resolution looks at; tests pass fake paths. */
export interface ChromiumProbe {
  exists(file: string): boolean;
  /** Where Playwright's registry says its Chromium lives (whether or not it is installed). */
  playwrightExecutable(): string | undefined;
}

export const realProbe: ChromiumProbe = {
  exists: existsSync,
  playwrightExecutable: () => {
    try {
      return chromium.executablePath();
    } catch {
      return undefined;
    }
  },
};

export class ChromiumMissing extends Error {
  override name = 'ChromiumMissing';
}

export const NO_CHROMIUM_HINT =
  'no Chromium found. Get one either way:\n' +
  '  npx playwright install chromium                          (any OS: Playwright downloads its own)\n' +
  '  sudo apt-get install -y chromium chromium-headless-shell (Debian / Ubuntu)\n' +
  'or point IWB_CHROMIUM at a Chromium or Chrome binary.';

/** The browser to use, or undefined when there is none; an IWB_CHROMIUM that does not exist throws. */
export function findChromium(explicit: string | undefined, probe: ChromiumProbe = realProbe): ChromiumChoice | undefined {
  if (explicit !== undefined && explicit.trim() !== '') {
    if (!probe.exists(explicit)) throw new ChromiumMissing(`environment variable IWB_CHROMIUM: no such file ${JSON.stringify(explicit)}`);
    return { path: explicit, source: 'IWB_CHROMIUM' };
  }
  for (const c of DEBIAN_CHROMIUM) if (probe.exists(c.path)) return { path: c.path, source: c.source };
  const own = probe.playwrightExecutable();
  if (own && probe.exists(own)) return { path: own, source: 'playwright' };
  return undefined;
}

/** Like findChromium, but a missing browser is an error that says how to get one. */
export function requireChromium(explicit: string | undefined, probe: ChromiumProbe = realProbe): ChromiumChoice {
  const found = findChromium(explicit, probe);
  if (!found) throw new ChromiumMissing(NO_CHROMIUM_HINT);
  return found;
}

export function describeChromium(c: ChromiumChoice): string {
  const why: Record<ChromiumSource, string> = {
    IWB_CHROMIUM: 'from IWB_CHROMIUM',
    'debian-headless-shell': "Debian's headless shell",
    'debian-chromium': "Debian's Chromium",
    playwright: 'installed by Playwright (npx playwright install chromium)',
  };
  return `${c.path} (${why[c.source]})`;
}
