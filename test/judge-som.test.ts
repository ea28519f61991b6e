import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser } from '@playwright/test';
import { somCommand } from '../cli/som.js';
import { pngSize } from '../vision/som-overlay.js';
import { installClickTracker, labelPage } from '../vision/som.js';
import { launch, tempSite, type TempSite } from './judge-support.js';

// Every kind of candidate the labeller must find, and every way an element can be out of a user's reach.
const LAB = `<!doctype html><html><head><title>SoM lab</title><style>
body { margin: 0; font: 16px sans-serif; }
.row { display: flex; gap: 12px; padding: 8px; flex-wrap: wrap; align-items: center; }
#overlay { position: absolute; left: 0; top: 300px; width: 400px; height: 60px; background: #eee; }
#covered { position: absolute; left: 20px; top: 310px; }
#frame-cover { position: absolute; left: 500px; top: 440px; width: 300px; height: 60px; background: #fcc; }
.ptr { cursor: pointer; }
</style></head><body>
<div class="row">
  <a href="/about.html">Home</a>
  <button id="save"><span onclick="void 0">Save</span></button>
  <label>Email <input id="email" value="a@b.c"></label>
  <label>Size <select><option>Small</option><option selected>Large</option></select></label>
  <textarea aria-label="Notes"></textarea>
  <details><summary>More</summary><p>x</p></details>
  <div role="button" tabindex="0">Custom</div>
  <div onclick="this.dataset.clicked = '1'">Card</div>
  <span class="ptr">Pointer <b>bold</b></span>
  <div contenteditable="true" aria-label="Editable" style="min-width: 60px">text</div>
  <div id="listener">Listener</div>
  <a href="#" class="ptr"><span class="ptr">Linked span</span></a>
</div>
<div class="row">
  <button style="display:none">Hidden display</button>
  <button style="visibility:hidden">Hidden visibility</button>
  <button style="opacity:0">Hidden opacity</button>
  <button style="width:0;height:0;padding:0;border:0;overflow:hidden">Hidden zero</button>
  <div style="opacity:0"><button>Hidden parent</button></div>
  <my-widget></my-widget>
</div>
<button id="covered">Covered</button>
<div id="overlay">overlay</div>
<button style="position:absolute; top:2000px; left:10px">Below</button>
<button style="position:absolute; top:100px; left:-500px">Left</button>
<iframe id="f1" style="position:absolute; left:500px; top:380px; width:400px; height:150px; border:0"
  srcdoc="<body style='margin:0'><button>Frame button</button><button style='margin-top:60px;display:block'>Under cover</button><button style='margin-top:300px;display:block'>Deep</button></body>"></iframe>
<div id="frame-cover"></div>
<iframe style="position:absolute; left:10px; top:600px; width:300px; height:80px" src="data:text/html,<button>Opaque</button>"></iframe>
<script>
document.getElementById('listener').addEventListener('click', () => {});
customElements.define('my-widget', class extends HTMLElement {
  constructor() { super(); this.attachShadow({ mode: 'open' }).innerHTML = '<button>Shadow button</button><button style="display:none">Shadow hidden</button>'; }
});
</script>
</body></html>`;

let browser: Browser;
let site: TempSite;
before(async () => {
  [browser, site] = await Promise.all([launch(), tempSite({ 'index.html': LAB })]);
});
after(async () => {
  await browser?.close();
  await site?.dispose();
});

test('labels exactly the reachable interactive elements: shadow DOM, same-origin iframe, no hidden, covered, off-screen or nested duplicates', async () => {
  const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
  await installClickTracker(page);
  await page.goto(site.url);
  const before = await page.evaluate(() => document.documentElement.outerHTML);
  const l = await labelPage(page);
  try {
    const names = l.elements.map((e) => e.name).sort();
    assert.deepEqual(names, ['Card', 'Custom', 'Editable', 'Email', 'Frame button', 'Home', 'Linked span', 'Listener', 'More', 'Notes', 'Pointer bold', 'Save', 'Shadow button', 'Size'].sort());
    assert.deepEqual(l.elements.map((e) => e.n), l.elements.map((_, i) => i + 1));
    const by = (name: string) => l.elements.find((e) => e.name === name)!;
    assert.equal(by('Email').role, 'textbox');
    assert.equal(by('Email').value, 'a@b.c');
    assert.equal(by('Size').value, 'Large');
    assert.equal(by('Save').tag, 'button', 'the span inside the button is not labelled separately');
    assert.equal(by('Frame button').frame, 'iframe f1');
    assert.ok(by('Frame button').box.x >= 500 && by('Frame button').box.y >= 380, 'frame boxes are in page coordinates');
    assert.match(l.text, /\[\d+\] link "Home"/);
    assert.match(l.text, /\[\d+\] textbox <input> "Email" value="a@b.c"/);
    // The handle acts on the element the number names, inside the iframe too.
    await (await l.handle(by('Frame button').n))!.click();
    assert.deepEqual(pngSize(l.labelled), { width: 1000, height: 700 });
    assert.notDeepEqual(l.labelled, l.screenshot, 'the labelled copy has boxes drawn on it');
    assert.equal(await page.evaluate(() => document.documentElement.outerHTML), before, 'labelling never writes to the page');
  } finally {
    await l.dispose();
    await page.close();
  }
});

test('after scrolling, what was below comes into the labelled set and what scrolled away leaves it', async () => {
  const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
  await page.goto(site.url);
  await page.mouse.wheel(0, 1500);
  await page.waitForFunction(() => window.scrollY > 1000);
  const l = await labelPage(page, { compose: false });
  try {
    assert.deepEqual(l.elements.map((e) => e.name), ['Below']);
  } finally {
    await l.dispose();
    await page.close();
  }
});

test('iwb som <file.html> --json lists the elements and writes the labelled screenshot', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-som-cli-'));
  try {
    const html = path.join(dir, 'page.html');
    await fs.writeFile(html, '<!doctype html><button>Go</button><a href="other.html">Other</a><img src="http://outside.example/x.png">');
    const out: string[] = [];
    const png = path.join(dir, 'labelled.png');
    const code = await somCommand([html, '--json', '--out', png, '--viewport', '800x600'], { out: (t) => out.push(t), err: (t) => out.push(t) });
    assert.equal(code, 0);
    const r = JSON.parse(out.join('\n')) as { elements: Array<{ n: number; role: string; name: string; box: { x: number } }>; blockedRequests: number };
    assert.deepEqual(r.elements.map((e) => [e.n, e.role, e.name]), [[1, 'button', 'Go'], [2, 'link', 'Other']]);
    assert.equal(r.blockedRequests, 1);
    assert.deepEqual(pngSize(await fs.readFile(png)), { width: 800, height: 600 });
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});
