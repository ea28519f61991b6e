import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ChromiumMissing, findChromium, requireChromium, type ChromiumProbe } from '../config/chromium.js';

/** A machine with exactly these files, and Playwright's registry pointing at `own`. */
const machine = (files: string[], own = '/home/u/.cache/ms-playwright/chromium-1/chrome-linux64/chrome'): ChromiumProbe => ({
  exists: (f) => files.includes(f),
  playwrightExecutable: () => own,
});
const SHELL = '/usr/bin/chromium-headless-shell';
const DEBIAN = '/usr/bin/chromium';
const OWN = '/home/u/.cache/ms-playwright/chromium-1/chrome-linux64/chrome';

test('chromium: IWB_CHROMIUM, then Debian headless shell, then Debian Chromium, then Playwright\'s own', () => {
  const all = machine(['/opt/c', SHELL, DEBIAN, OWN]);
  assert.deepEqual(findChromium('/opt/c', all), { path: '/opt/c', source: 'IWB_CHROMIUM' });
  assert.deepEqual(findChromium(undefined, all), { path: SHELL, source: 'debian-headless-shell' });
  assert.deepEqual(findChromium('', machine([DEBIAN, OWN])), { path: DEBIAN, source: 'debian-chromium' });
  assert.deepEqual(findChromium(undefined, machine([OWN])), { path: OWN, source: 'playwright' }, 'a Mac or a desktop after npx playwright install chromium');
  assert.equal(findChromium(undefined, machine([])), undefined, 'registry path known but not installed');
  assert.equal(findChromium(undefined, { exists: () => true, playwrightExecutable: () => undefined })?.source, 'debian-headless-shell');
});

test('chromium: an IWB_CHROMIUM that does not exist is an error, not a silent fallback; none at all names both ways to get one', () => {
  assert.throws(() => findChromium('/opt/typo', machine([SHELL])), /IWB_CHROMIUM: no such file "\/opt\/typo"/);
  assert.throws(
    () => requireChromium(undefined, machine([])),
    (e: Error) => e instanceof ChromiumMissing && /npx playwright install chromium/.test(e.message) && /apt-get install -y chromium/.test(e.message),
  );
});

test('chromium: the real registry answers with a path (Playwright\'s own API, no hard-coded folder)', () => {
  const found = findChromium(undefined);
  if (found) assert.ok(found.path.length > 0);
});
