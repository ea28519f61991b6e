import { preflightAnswer } from '../testkit/fake-quirks.js';
import assert from 'node:assert/strict';
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, readSettings } from '../config/settings.js';
import { reply, schemaName, start, type FakeServer, type RecordedRequest } from '../testkit/fake-server.js';
import type { Report } from '../reporters/report.js';
import { caseHref } from '../reporters/case-view.js';
import { playwright } from './bench-support.js';

/** Two cases of one task in the public format, no probes: only the scripted judge model decides. */
function records(): string {
  const base = {
    original_id: 'echo-1',
    application_type: 'Echo page',
    ground_truth_instruction: 'Build a page titled "Echo agent" that repeats the request in a quote.',
    difficulty: 'easy',
    oracle_slots: [
      { id: 's1', original_task: 'Read the heading', expected_result: 'The heading reads Echo agent', target_component: 'Header', assertion_type: 'POSITIVE', c_tech: 1 },
      { id: 's2', original_task: 'Look for a sign-up form', expected_result: 'There is no sign-up form', target_component: 'Unrequested_Feature', assertion_type: 'NEGATIVE', c_tech: 1 },
    ],
  };
  return [
    { ...base, id: 'echo-1-P-MIN', persona: 'P-MIN', instruction: 'A page that repeats my request.' },
    { ...base, id: 'echo-1-P-INT', persona: 'P-INT', instruction: 'Something that sings my words back.' },
  ].map((r) => JSON.stringify(r)).join('\n') + '\n';
}

/** One judge turn per slot: s1 holds, s2 fails (with its own evidence), so the page has both. */
function judgeModel(req: RecordedRequest) {
  // The run's preflight asks its own small questions first (llm/preflight.ts).
  const probe = preflightAnswer(req.body);
  if (probe) return probe;
  const name = schemaName(req);
  if (name === 'visual_score') return reply.json({ layout: 4, creativeAlignment: 3, overall: 4, rationale: 'plain' });
  if (name === 'intent_judgement') return reply.json({ slotHits: [{ slot: 's1', hit: true }, { slot: 's2', hit: false }], ias: 4, rationale: 'fine' });
  const text = JSON.stringify(req.body.messages);
  const slot = text.includes('sign-up form') ? 's2' : 's1';
  return reply.json({ thought: 'decided', action: { kind: 'verdict', status: slot === 's1' ? 'pass' : 'fail', evidence: `EVIDENCE-${slot}: judged from the page` } });
}

let fake: FakeServer;
let tmp: string;
before(async () => {
  fake = await start();
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-case-viewer-'));
});
after(async () => {
  await fake?.close();
  await fs.rm(tmp, { recursive: true, force: true });
});

const hrefs = (html: string) => [...html.matchAll(/\s(?:href|src)="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));

test('case viewer: a run with a scripted judge model gets a page per case, every link resolves, and nothing reaches the network', async () => {
  const dataset = path.join(tmp, 'echo.jsonl');
  await fs.writeFile(dataset, records());
  fake.script(judgeModel);
  const reportDir = path.join(tmp, 'report');
  const htmlDir = path.join(tmp, 'playwright-report');
  // The agent and the judge come from a config file, read by playwright.config.ts and passed to its workers.
  const config = path.join(tmp, 'iwb.config.json');
  await fs.writeFile(config, JSON.stringify({ agent: 'command:node examples/echo-agent.mjs', agentName: 'echo', roles: { judge: { model: 'fake-judge', baseURL: fake.baseURL, apiKeyEnv: 'CASE_VIEWER_JUDGE_KEY' } } }));
  const run = await playwright(['test', '--project=p-min', '--workers=1', '--reporter=html,./reporters/iwb-reporter.ts', '--output', path.join(tmp, 'test-results')], {
    IWB_CONFIG: config,
    IWB_AGENT: '',
    CASE_VIEWER_JUDGE_KEY: 'test-key',
    IWB_DATASET: dataset,
    IWB_RUN_DIR: path.join(tmp, 'runs'),
    IWB_REPORT_DIR: reportDir,
    PLAYWRIGHT_HTML_OUTPUT_DIR: htmlDir,
  });
  assert.equal(run.status, 1, `s2 fails:\n${run.output.slice(-3000)}`);
  assert.ok(fake.requests.length > 0 && fake.requests.every((r) => r.headers.authorization === 'Bearer test-key'), 'the judge key came from the variable the file names');
  assert.ok(!run.output.includes('test-key'), 'the key is never printed');
  assert.match(run.output, /\[iwb\] agent command:node examples\/echo-agent\.mjs named echo/, 'the agent is announced at the start');
  assert.match(run.output, /\[iwb\] Partial run: 1 of 2 cases of the dataset/);

  const report = JSON.parse(await fs.readFile(path.join(reportDir, 'report.json'), 'utf8')) as Report;
  assert.deepEqual(report.meta.agents, ['echo'], 'IWB_AGENT_NAME names the command agent in reports');
  assert.deepEqual(report.meta.partial, { casesRun: 1, casesInDataset: 2, interrupted: false, reason: '1 of 2 cases of the dataset (filtered by --project, --grep or --shard)' });
  const summary = await fs.readFile(path.join(reportDir, 'summary.html'), 'utf8');
  assert.match(summary, /Partial run: 1 of 2 cases/);
  assert.match(summary, /<select data-filter="persona">/);

  for (const c of report.cases) {
    const page = path.join(reportDir, caseHref(c));
    assert.ok(summary.includes(`href="${caseHref(c)}"`), 'the summary links the case');
    const html = await fs.readFile(page, 'utf8');
    assert.ok(!/<script/i.test(html), 'a case page has no script');
    assert.match(html, /Content-Security-Policy" content="default-src 'none'/);
    for (const want of ['A page that repeats my request.', 'Build a page titled &quot;Echo agent&quot;', 'What is the most important thing the page should show?', 'EVIDENCE-s1', 'EVIDENCE-s2', 'llm-som:fake-judge', 'index.html', 'expect: There is no sign-up form', "the agent's stderr"]) {
      assert.ok(html.includes(want), `the case page shows ${want}`);
    }
    for (const link of hrefs(html)) assert.ok(existsSync(path.resolve(path.dirname(page), link)), `${link} resolves`);
    assert.ok(existsSync(path.join(htmlDir, caseHref(c))), 'copied into the Playwright HTML report');

    // Opened from disk in Chromium: every image loads lazily from the case folder, and no request leaves it.
    const browser = await chromium.launch({ executablePath: readSettings(process.env).chromium, args: CHROMIUM_ARGS });
    try {
      const p = await browser.newPage();
      const requests: string[] = [];
      p.on('request', (r) => requests.push(r.url()));
      await p.goto(`file://${page}`);
      const images = p.locator('img');
      assert.ok((await images.count()) >= 3, 'a verify shot, the final page and the judge screenshots');
      for (const im of await images.all()) {
        await im.scrollIntoViewIfNeeded();
        await assert.doesNotReject(im.evaluate((e: HTMLImageElement) => (e.complete && e.naturalWidth > 0 ? true : new Promise((ok, no) => { e.onload = ok; e.onerror = no; }))));
      }
      assert.deepEqual(requests.filter((u) => !u.startsWith('file://')), [], 'nothing but local files');
      // The summary's one script runs under its CSP (allowed by hash): the filters work from disk.
      await p.goto(`file://${path.join(reportDir, 'summary.html')}`);
      assert.equal(await p.locator('#shown').textContent(), '1 of 1 cases');
      await p.selectOption('select[data-filter="status"]', 'failed');
      assert.equal(await p.locator('#shown').textContent(), '1 of 1 cases', 's2 failed, so the case is failed');
      await p.locator('table.cases a').first().click();
      assert.equal(p.url(), `file://${page}`, 'the link opens the case page');
    } finally {
      await browser.close();
    }
  }
});
