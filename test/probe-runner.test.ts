import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { chromium, type Browser, type Page } from '@playwright/test';
import { serveStatic, type ServedSite } from '../site/site-server.js';
import { CHROMIUM_ARGS, readSettings } from '../config/settings.js';
import { normaliseColour } from '../slots/css-values.js';
import { createProbeJudge } from '../judge/probe-judge.js';
import { runProbe } from '../judge/probe-runner.js';
import { ProbeSchema, type Probe } from '../slots/probe-schema.js';
import type { Case, WeightedSlot } from '../slots/schema.js';

const LAB = `<!doctype html><html><head><title>Probe Lab</title><style>
#box { background-color: #228b22; color: rgba(255, 0, 0, 0.5); font-weight: bold; }
.done { text-decoration: line-through; }
h2 { text-transform: uppercase; }
</style></head><body>
<h1>Probe Lab</h1><h2>Quiet heading</h2>
<div id="box">Box</div>
<ul><li>One</li><li>Two</li><li style="display:none">Hidden</li><li class="done"><span>Struck</span></li></ul>
<button onclick="alert('hi'); document.getElementById('out').textContent = 'after alert'">Say hi</button>
<button onclick="document.getElementById('out').textContent = 'prompt ' + prompt('name?')">Ask</button>
<button onclick="setTimeout(() => { document.getElementById('out').textContent = 'late'; }, 400)">Later</button>
<p id="out"></p>
<label>Fruit <select><option value="a">Apple</option><option value="p">Pear</option></select></label>
<label>Name <input></label>
<script>localStorage.setItem('lab', JSON.stringify({ state: 'ready' }));</script>
</body></html>`;
const WIDE = `<!doctype html><html><body><h1>Wide</h1><div style="width: 3000px">wide</div></body></html>`;

let browser: Browser;
let site: ServedSite;
let dir: string;

before(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-probe-lab-'));
  await fs.writeFile(path.join(dir, 'index.html'), LAB);
  await fs.writeFile(path.join(dir, 'wide.html'), WIDE);
  site = await serveStatic(dir);
  browser = await chromium.launch({ executablePath: readSettings(process.env).chromium, args: CHROMIUM_ARGS });
});
after(async () => {
  await browser?.close();
  await site?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

async function run(steps: unknown[], timeoutMs = 3000) {
  const probe: Probe = ProbeSchema.parse({ steps });
  const context = await browser.newContext();
  try {
    return await runProbe(await context.newPage(), site.url, probe, { timeoutMs });
  } finally {
    await context.close();
  }
}

test('colours normalise from hex, names, rgb and hsl to rgb()', () => {
  for (const v of ['#228b22', 'forestgreen', 'ForestGreen', 'rgb(34,139,34)', 'rgb(34 139 34)', 'rgba(34, 139, 34, 1)', 'hsl(120, 60.7%, 33.9%)']) {
    assert.equal(normaliseColour(v), 'rgb(34, 139, 34)', v);
  }
  assert.equal(normaliseColour('#f00'), 'rgb(255, 0, 0)');
  assert.equal(normaliseColour('#ff000080'), 'rgba(255, 0, 0, 0.5)');
  assert.equal(normaliseColour('constructor'), null);
  assert.equal(normaliseColour('transparent'), 'rgba(0, 0, 0, 0)');
  assert.equal(normaliseColour('bold'), null);
});

test('css expectations compare computed style with any colour spelling', async () => {
  for (const equals of ['forestgreen', '#228B22', 'rgb(34, 139, 34)']) {
    const r = await run([{ expect: 'css', target: { css: '#box' }, property: 'background-color', equals }]);
    assert.ok(r.passed, r.evidence);
  }
  const ok = await run([
    { expect: 'css', target: { css: '#box' }, property: 'color', equals: '#ff000080' },
    { expect: 'css', target: { css: '#box' }, property: 'color', equals: 'rgba(255 0 0 / 50%)' },
    { expect: 'css', target: { css: '#box' }, property: 'font-weight', oneOf: ['bold', '800'] },
    { expect: 'css', target: { text: 'Struck', exact: true }, property: 'text-decoration-line', equals: 'line-through' },
  ]);
  assert.ok(ok.passed, ok.evidence);
  const bad = await run([{ expect: 'css', target: { css: '#box' }, property: 'background-color', equals: 'red' }], 300);
  assert.equal(bad.passed, false);
  assert.equal(bad.failedAt, 0);
  assert.match(bad.evidence, /rgb\(255, 0, 0\).*found rgb\(34, 139, 34\)/);
});

test('count counts visible matches against equals, min and max', async () => {
  const ok = await run([
    { expect: 'count', target: { role: 'listitem' }, equals: 3 },
    { expect: 'count', target: { css: 'li' }, min: 2, max: 3 },
    { expect: 'count', target: { role: 'button' }, min: 3 },
    { expect: 'count', target: { css: 'option' }, equals: 2 },
    { expect: 'count', target: { css: 'form' }, equals: 0 },
  ]);
  assert.ok(ok.passed, ok.evidence);
  const bad = await run([{ expect: 'count', target: { css: 'li' }, max: 1 }], 300);
  assert.equal(bad.passed, false);
  assert.match(bad.evidence, /<= 1, found 3/);
});

test('text expectations: contains, equals, matches, not, case and text-transform', async () => {
  const ok = await run([
    { expect: 'text', target: { role: 'heading', name: 'Probe Lab' }, equals: 'Probe Lab' },
    { expect: 'text', target: { css: 'h2' }, equals: 'Quiet heading' },
    { expect: 'text', target: { css: 'li' }, contains: 'two' },
    { expect: 'text', target: { css: '#box' }, matches: '^B.x$' },
    { expect: 'text', target: { css: 'li' }, contains: 'Hidden', not: true },
    { expect: 'visible', target: { text: 'One' } },
    { expect: 'hidden', target: { text: 'Hidden' } },
    { expect: 'title', contains: 'probe lab' },
    { expect: 'storage', key: 'lab', contains: 'ready' },
  ]);
  assert.ok(ok.passed, ok.evidence);
  const bad = await run([{ expect: 'text', target: { css: '#box' }, equals: 'Bag' }], 300);
  assert.equal(bad.passed, false);
  assert.match(bad.evidence, /equal to "Bag", found "Box"/);
});

test('actions: fill, select, polling for a late update', async () => {
  const r = await run([
    { action: 'fill', target: { label: 'Name' }, value: 'Ada' },
    { expect: 'text', target: { label: 'Name' }, equals: 'Ada' },
    { action: 'select', target: { label: 'Fruit' }, value: 'Pear' },
    { expect: 'text', target: { label: 'Fruit' }, equals: 'Pear' },
    { action: 'click', target: { role: 'button', name: 'Later' } },
    { expect: 'text', target: { css: '#out' }, equals: 'late' },
  ]);
  assert.ok(r.passed, r.evidence);
});

test('a missing click target fails the probe with evidence naming it', async () => {
  const started = Date.now();
  const r = await run([
    { action: 'goto', path: '/' },
    { action: 'click', target: { role: 'button', name: 'Delete everything' } },
    { expect: 'visible', target: { text: 'One' } },
  ], 500);
  assert.equal(r.passed, false);
  assert.equal(r.failedAt, 1);
  assert.match(r.evidence, /step 2\/3/);
  assert.match(r.evidence, /Delete everything.*not found/);
  assert.ok(Date.now() - started < 5000);
});

test('alert and prompt are accepted and do not hang the probe', async () => {
  const r = await run([
    { action: 'click', target: { role: 'button', name: 'Say hi' } },
    { expect: 'text', target: { css: '#out' }, equals: 'after alert' },
    { action: 'click', target: { role: 'button', name: 'Ask' } },
    { expect: 'text', target: { css: '#out' }, equals: 'prompt test' },
  ]);
  assert.ok(r.passed, r.evidence);
  assert.ok(r.steps.some((s) => s.action === 'dialog' && s.detail === 'alert accepted'));
});

test('no-horizontal-overflow and viewport', async () => {
  const ok = await run([{ action: 'viewport', width: 375, height: 700 }, { expect: 'no-horizontal-overflow' }]);
  assert.ok(ok.passed, ok.evidence);
  const bad = await run([{ action: 'goto', path: '/wide.html' }, { expect: 'no-horizontal-overflow' }], 200);
  assert.equal(bad.passed, false);
  assert.match(bad.evidence, /scrollWidth 3\d{3}/);
  const missing = await run([{ action: 'goto', path: '/nope.html' }, { expect: 'title', contains: 'x' }], 200);
  assert.match(missing.evidence, /HTTP 404/);
});

test('probe judge: unjudged without a probe, pass/fail with one, errored on a closed page', async () => {
  const judge = createProbeJudge({ timeoutMs: 300 });
  const context = await browser.newContext();
  const page: Page = await context.newPage();
  const slot = (probe?: unknown): WeightedSlot => ({
    id: 's1', task: 't', expectedResult: 'e', targetComponent: 'C', assertionType: 'POSITIVE', cTech: 1, weight: 1,
    ...(probe ? { probe: ProbeSchema.parse(probe) } : {}),
  });
  const sut = { url: site.url, page, browser, case: {} as Case };
  const none = await judge.judge(sut, slot());
  assert.deepEqual([none.status, none.evidence], ['unjudged', 'no deterministic probe']);
  assert.equal((await judge.judge(sut, slot({ steps: [{ expect: 'visible', target: { text: 'One' } }] }))).status, 'pass');
  assert.equal((await judge.judge(sut, slot({ steps: [{ expect: 'visible', target: { text: 'Zero' } }] }))).status, 'fail');
  await context.close();
  const dead = await judge.judge(sut, slot({ steps: [{ expect: 'visible', target: { text: 'One' } }] }));
  assert.equal(dead.status, 'errored', dead.evidence);
});
