import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser } from '@playwright/test';
import { PROFILES } from '../config/profiles.js';
import { checkCrash, getCrash } from '../judge/crash-check.js';
import { selectJudge } from '../judge/select.js';
import { launch, makeCase, siteUnderTest, slot, tempSite, type TempSite } from './judge-support.js';

const page = (script: string, body = '<h1>Tip calculator</h1><button>Split</button>') =>
  `<!doctype html><html><head><title>Tips</title></head><body>${body}<script>${script}</script></body></html>`;

let browser: Browser;
let sites: Record<'clean' | 'consoleError' | 'late' | 'uncaught' | 'empty' | 'outside', TempSite>;
let tmp: string;
before(async () => {
  browser = await launch();
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-crash-'));
  const [clean, consoleError, late, uncaught, empty, outside] = await Promise.all([
    tempSite({ 'index.html': page('console.log("ready"); console.warn("deprecated API")') }),
    tempSite({ 'index.html': page('console.error("Failed to parse saved state")') }),
    tempSite({ 'index.html': page('setTimeout(() => console.error("late failure"), 600)') }),
    tempSite({ 'index.html': page('window.totals.sum()') }),
    tempSite({ 'index.html': page('', '') }),
    // A request the sandbox refuses is not the site's error.
    tempSite({ 'index.html': page('', '<h1>Gallery</h1><img src="http://cdn.example/x.png" alt="">') }),
  ]);
  sites = { clean: clean!, consoleError: consoleError!, late: late!, uncaught: uncaught!, empty: empty!, outside: outside! };
});
after(async () => {
  await Promise.all([browser?.close(), ...Object.values(sites ?? {}).map((s) => s.dispose()), fs.rm(tmp, { recursive: true, force: true })]);
});

test('the crash check: console errors, uncaught exceptions and an empty body crash a site; logs, warnings and refused outside requests do not', async () => {
  assert.deepEqual(await checkCrash(browser, sites.clean.url), { crashed: false, errors: [] });
  assert.deepEqual(await checkCrash(browser, sites.outside.url), { crashed: false, errors: [] });
  const logged = await checkCrash(browser, sites.consoleError.url);
  assert.equal(logged.crashed, true);
  assert.equal(logged.reason, 'Failed to parse saved state');
  const late = await checkCrash(browser, sites.late.url);
  assert.equal(late.reason, 'late failure', 'an error in the seconds after the DOM is ready still counts');
  const thrown = await checkCrash(browser, sites.uncaught.url);
  assert.match(thrown.reason ?? '', /^uncaught TypeError: .*'sum'/);
  assert.deepEqual(await checkCrash(browser, sites.empty.url), { crashed: true, reason: 'empty body', errors: [] });
});

test('the finding is made once per episode and kept beside it', async () => {
  const dir = path.join(tmp, 'episode-a');
  await fs.mkdir(dir);
  const first = await getCrash(dir, browser, sites.consoleError.url);
  assert.equal(first.crashed, true);
  const stored = JSON.parse(await fs.readFile(path.join(dir, 'crash.json'), 'utf8')) as { reason: string };
  assert.equal(stored.reason, 'Failed to parse saved state');
  // Another process of the same run reads the file rather than loading the page again.
  const other = path.join(tmp, 'episode-b');
  await fs.mkdir(other);
  await fs.writeFile(path.join(other, 'crash.json'), JSON.stringify({ crashed: true, reason: 'from disk', errors: ['from disk'] }));
  assert.equal((await getCrash(other, browser, sites.clean.url)).reason, 'from disk');
});

test('selectJudge under paper fails every slot of a crashed site, probes included, without judging; under iwb the probe decides', async () => {
  const probed = slot('title', { probe: { steps: [{ expect: 'title', contains: 'Tips' }] } });
  const c = makeCase([probed, slot('free')]);
  const crash = await checkCrash(browser, sites.consoleError.url);
  const site = await siteUnderTest(browser, sites.consoleError, c, false);
  try {
    const paper = selectJudge({ clients: {}, profile: PROFILES.paper });
    for (const s of c.slots) {
      const v = await paper.judge({ ...site, crash }, s);
      assert.equal(v.status, 'fail');
      assert.equal(v.judge, 'crash-rule');
      assert.equal(v.evidence, 'crashed on load: Failed to parse saved state');
    }
    const iwb = selectJudge({ clients: {}, profile: PROFILES.iwb });
    assert.equal((await iwb.judge(site, probed)).status, 'pass', 'no crash rule: the page is judged as it is');
    assert.equal((await paper.judge({ ...site, crash: { crashed: false, errors: [] } }, probed)).status, 'pass', 'a site that did not crash is judged');
  } finally {
    await site.close();
  }
});
