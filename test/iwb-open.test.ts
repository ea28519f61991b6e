import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { openCommand, serveReports } from '../cli/open.js';
import { externalOrigins, makeAllureOffline, offlineAllureHtml } from '../reporters/allure-offline.js';
import { capture } from './cli-capture.js';

/** The tail of an index.html as Allure 3.18's awesome plugin writes it (the tag manager and its config). */
const ALLURE_INDEX = `<!DOCTYPE html>
<html dir="ltr" lang="en">
<head>
    <meta charset="utf-8">
    <title> InteractWeb-Bench </title>
    <link rel="icon" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'%3E%3C/svg%3E">
</head>
<body>
    <div id="app"></div>
    <script>
      const { origin, pathname } = window.location;
    </script>
    <script   src="app-b3323b2606f19801ef1b.js"></script>
    <script async src="https://www.googletagmanager.com/gtag/js?id=G-LNDJ3J7WT0"></script>
    <script>
        window.dataLayer = window.dataLayer || [];
        function gtag(){dataLayer.push(arguments);}
        gtag('js', new Date());
        gtag('config', 'G-LNDJ3J7WT0', { "report": "awesome" });
    </script>
      <script async>
        window.allureReportDataReady = true;
      </script>
</body>
</html>
`;

let tmp: string;
before(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-open-'));
});
after(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

test("an Allure page loses the tag manager and its config, keeps its own scripts, and gets a policy that keeps it on its origin", () => {
  assert.deepEqual(externalOrigins(ALLURE_INDEX), ['www.googletagmanager.com'], 'the fixture calls out');
  const out = offlineAllureHtml(ALLURE_INDEX);
  assert.deepEqual(externalOrigins(out), []);
  assert.doesNotMatch(out, /gtag|dataLayer/);
  for (const kept of ['src="app-b3323b2606f19801ef1b.js"', 'window.allureReportDataReady = true', 'const { origin, pathname } = window.location;']) assert.ok(out.includes(kept), kept);
  assert.match(out, /<head>\s*<meta http-equiv="Content-Security-Policy" content="default-src 'self'/);
  assert.equal(offlineAllureHtml(out), out, 'a second pass changes nothing');
});

test('iwb open serves a report folder on 127.0.0.1 and names its pages; --allure makes the folder offline first', async () => {
  const report = path.join(tmp, 'report');
  await fs.mkdir(path.join(report, 'playwright-report'), { recursive: true });
  await fs.writeFile(path.join(report, 'summary.html'), '<!doctype html><title>s</title>');
  await fs.writeFile(path.join(report, 'playwright-report', 'index.html'), '<!doctype html><title>pw</title>');
  const { served, pages } = await serveReports(report, { allure: false });
  try {
    assert.match(served.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.deepEqual(pages.map((p) => p.name), ['summary', 'Playwright HTML report']);
    for (const p of pages) assert.equal((await fetch(p.url)).status, 200, p.url);
  } finally {
    await served.close();
  }

  const allure = path.join(tmp, 'allure-report');
  await fs.mkdir(allure);
  await fs.writeFile(path.join(allure, 'index.html'), ALLURE_INDEX);
  const io = capture();
  let stop!: () => void;
  const running = openCommand(['--allure', '--port', '0'], io, { IWB_ALLURE_REPORT: allure }, new Promise<void>((r) => (stop = r)));
  try {
    await new Promise((r) => setTimeout(r, 300));
    const url = /Allure report: (\S+)/.exec(io.outText())?.[1];
    assert.ok(url, io.outText());
    const served2 = await (await fetch(url)).text();
    assert.deepEqual(externalOrigins(served2), [], 'the served Allure page calls nowhere');
  } finally {
    stop();
  }
  assert.equal(await running, 0);
});

test('--no-serve only rewrites the Allure folder (what npm run report:allure runs after allure generate)', async () => {
  const allure = path.join(tmp, 'allure-2');
  await fs.mkdir(allure);
  await fs.writeFile(path.join(allure, 'index.html'), ALLURE_INDEX);
  const io = capture();
  assert.equal(await openCommand(['--allure', '--no-serve'], io, { IWB_ALLURE_REPORT: allure }), 0);
  assert.match(io.outText(), /1 page\(s\) changed/);
  assert.deepEqual(externalOrigins(await fs.readFile(path.join(allure, 'index.html'), 'utf8')), []);
  assert.deepEqual(await makeAllureOffline(allure), [], 'already offline');
  await assert.rejects(openCommand(['--no-serve'], capture(), {}), /only applies to --allure/);
  await assert.rejects(openCommand([path.join(tmp, 'missing')], capture(), {}), /does not exist/);
});
