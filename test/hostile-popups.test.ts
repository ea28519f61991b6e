import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Browser } from '@playwright/test';
import { guardPage } from '../vision/page-guard.js';
import { freshPage } from '../site/fresh-page.js';
import { renderPage } from '../site/render.js';
import { launchBrowser } from './agent-support.js';
import { listenLocal } from './sandbox-support.js';

/**
 * A judged or verified page that opens popups to another 127.0.0.1 port (window.open, a target=_blank
 * link, a blank popup sent elsewhere) reaches nothing there: the browser context, every page of it, is
 * confined to the site under test.
 */

let browser: Browser;
let bystander: http.Server;
let hits: string[] = [];
let site: http.Server;
let siteUrl: string;

before(async () => {
  browser = await launchBrowser();
  bystander = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    res.end('another run\u2019s site');
  });
  const other = `http://127.0.0.1:${await listenLocal(bystander)}`;
  const html = `<!doctype html><title>popups</title><a id="blank" target="_blank" href="${other}/blank">more</a><script>
    window.open('${other}/open');
    const w = window.open('about:blank');
    if (w) w.location = '${other}/assign';
  </script>`;
  site = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
  siteUrl = `http://127.0.0.1:${await listenLocal(site)}/`;
});
after(async () => {
  await browser.close();
  bystander.close();
  site.close();
});

describe('popups of the judged browser', () => {
  test("the judge's page guard confines every page of the context", async () => {
    hits = [];
    const { context, page } = await freshPage(browser);
    const guard = await guardPage(page, siteUrl);
    try {
      await page.goto(siteUrl);
      await page.click('#blank');
      await page.waitForTimeout(1000);
      assert.ok(context.pages().length > 1, 'the popups opened');
      assert.deepEqual(hits, [], 'the other port was reached');
      assert.ok(guard.blocked() >= 3, `blocked ${guard.blocked()}`);
    } finally {
      await guard.dispose();
      await context.close();
    }
  });

  test("the agent's verify screenshot reaches only the site", async () => {
    hits = [];
    await renderPage(browser, siteUrl, '/');
    await new Promise((r) => setTimeout(r, 800));
    assert.deepEqual(hits, []);
  });
});
