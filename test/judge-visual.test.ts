import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import type { Browser } from '@playwright/test';
import { assessVisual } from '../judge/visual-score.js';
import { checkVisual } from '../judge/visual-checks.js';
import { ModelClient } from '../llm/client.js';
import { reply, schemaName, start, type FakeServer } from '../testkit/fake-server.js';
import { launch, tempSite, type TempSite } from './judge-support.js';

const CLEAN = `<!doctype html><html><head><title>Clean</title></head><body><h1>Hello</h1><p>A tidy page.</p></body></html>`;
const BROKEN = `<!doctype html><html><head><title>Broken</title></head><body>
<h1>Broken</h1>
<div style="width: 2400px">too wide</div>
<div style="position: relative; height: 40px"><span style="position: absolute; left: 0; top: 0">First label</span><span style="position: absolute; left: 4px; top: 2px">Second label</span></div>
<img src="missing.png" alt="missing" width="80" height="80">
<script>console.error('boom'); undefinedFunction();</script>
</body></html>`;
const BLANK = `<!doctype html><html><head><title>Blank</title></head><body><div></div></body></html>`;

let browser: Browser;
let sites: Record<'clean' | 'broken' | 'blank', TempSite>;
let fake: FakeServer;
before(async () => {
  const [b, clean, broken, blank, f] = await Promise.all([launch(), tempSite({ 'index.html': CLEAN }), tempSite({ 'index.html': BROKEN }), tempSite({ 'index.html': BLANK }), start()]);
  browser = b;
  sites = { clean, broken, blank };
  fake = f;
});
after(async () => {
  await Promise.all([browser?.close(), fake?.close(), ...Object.values(sites ?? {}).map((s) => s.dispose())]);
});
beforeEach(() => fake.reset());

test('visual checks: a clean page has no finding; overflow, overlapping text, a broken image, console errors and a blank page are found', async () => {
  const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
  try {
    const clean = await checkVisual(page, sites.clean.url);
    assert.deepEqual(clean.findings, []);
    assert.equal(clean.bug, false);
    const broken = await checkVisual(page, sites.broken.url);
    assert.equal(broken.bug, true);
    assert.deepEqual([...new Set(broken.findings.map((f) => f.check))].sort(), ['broken-image', 'console-error', 'horizontal-overflow', 'overlapping-text']);
    assert.ok(broken.findings.some((f) => f.check === 'console-error' && /undefinedFunction/.test(f.detail)));
    const blank = await checkVisual(page, sites.blank.url);
    assert.deepEqual(blank.findings.map((f) => f.check), ['blank-page']);
  } finally {
    await page.close();
  }
});

test('with a judge model, layout, creative alignment and overall look are scored from the screenshot', async () => {
  const client = new ModelClient({ role: 'judge', model: 'fake-judge', baseURL: fake.baseURL, apiKey: 'k' }, { retry: { retries: 0, timeoutMs: 5000 }, schemaRetries: 1 });
  fake.script(reply.json({ layout: 6, creativeAlignment: 1, overall: 1, rationale: 'x' }), reply.json({ layout: 4, creativeAlignment: 3, overall: 4, rationale: 'tidy' }));
  const page = await browser.newPage();
  try {
    const a = await assessVisual(page, sites.clean.url, { client, instruction: 'A greeting page' });
    assert.deepEqual(a.scores, { layout: 4, creativeAlignment: 3, overall: 4, rationale: 'tidy' });
    assert.equal(fake.requests.length, 2, 'an out-of-range score is retried');
    assert.equal(schemaName(fake.requests[0]!), 'visual_score');
  } finally {
    await page.close();
  }
});
