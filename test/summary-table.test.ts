import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { chromium, type Browser, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, readSettings } from '../config/settings.js';
import { renderSummary } from '../reporters/html-summary.js';
import { reportOf, type CaseSpec } from './report-support.js';

/** Cases whose TCR, difficulty and agent differ, listed out of order. */
const CASES: CaseSpec[] = [
  { id: 'kanban_P-MIN', agent: 'alpha', difficulty: 'middle', positives: ['pass', 'fail'] },
  { id: 'poll_P-MIN', agent: 'beta', difficulty: 'hard', positives: ['pass', 'pass'] },
  { id: 'tip_P-CON', agent: 'alpha', persona: 'P-CON', difficulty: 'easy', positives: ['fail', 'fail'] },
  { id: 'faq_P-MIN', agent: 'beta', difficulty: 'easy', positives: ['errored'] },
  { id: 'notes_P-CON', agent: 'alpha', persona: 'P-CON', difficulty: 'hard', positives: ['pass', 'fail', 'fail', 'fail'] },
];

let tmp: string;
let browser: Browser;
let page: Page;
before(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-summary-table-'));
  await fs.writeFile(path.join(tmp, 'summary.html'), renderSummary(reportOf(CASES)));
  browser = await chromium.launch({ executablePath: readSettings(process.env).chromium, args: CHROMIUM_ARGS });
  page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(`file://${path.join(tmp, 'summary.html')}`);
  assert.deepEqual(errors, [], 'the script runs under the page CSP without an error');
});
after(async () => {
  await browser?.close();
  await fs.rm(tmp, { recursive: true, force: true });
});

const visibleIds = () => page.locator('table.cases tbody tr:not([hidden]) td:first-child').allTextContents();
const header = (name: string) => page.locator('table.cases th', { hasText: new RegExp(`^${name}`) });

test('the case table sorts by a column header, numbers as numbers, undefined values last, and reverses on a second click', async () => {
  await header('TCR %').click();
  // TCR: tip 0, notes 25, kanban 50, poll 100; faq has none (all errored) and goes last both ways.
  assert.deepEqual(await visibleIds(), ['tip_P-CON', 'notes_P-CON', 'kanban_P-MIN', 'poll_P-MIN', 'faq_P-MIN']);
  assert.equal(await header('TCR %').getAttribute('aria-sort'), 'ascending');
  await header('TCR %').click();
  assert.deepEqual(await visibleIds(), ['poll_P-MIN', 'kanban_P-MIN', 'notes_P-CON', 'tip_P-CON', 'faq_P-MIN']);
  // Difficulty sorts easy, middle, hard (not alphabetically); ties keep the current order.
  await header('difficulty').press('Enter');
  const difficulties = await page.locator('table.cases tbody tr td:nth-child(5)').allTextContents();
  assert.deepEqual(difficulties, ['easy', 'easy', 'middle', 'hard', 'hard']);
});

test('the search keeps the rows whose text holds it, together with the filters, and says how many show', async () => {
  await page.fill('#search', 'P-CON');
  assert.deepEqual((await visibleIds()).sort(), ['notes_P-CON', 'tip_P-CON']);
  assert.equal(await page.locator('#shown').textContent(), '2 of 5 cases');
  await page.selectOption('select[data-filter="difficulty"]', 'hard');
  assert.deepEqual(await visibleIds(), ['notes_P-CON']);
  await page.fill('#search', 'BETA');
  assert.deepEqual(await visibleIds(), ['poll_P-MIN'], 'case-insensitive, and the difficulty filter still applies');
  await page.selectOption('select[data-filter="difficulty"]', '');
  assert.deepEqual((await visibleIds()).sort(), ['faq_P-MIN', 'poll_P-MIN']);
  await page.fill('#search', '');
  assert.equal(await page.locator('#shown').textContent(), '5 of 5 cases');
});
