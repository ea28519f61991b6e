import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { findChromium } from '../config/chromium.js';
import { readSettings } from '../config/settings.js';
import { loadPriceTable } from '../llm/cost.js';

test('settings: defaults, typed values, and a bad value names its variable', () => {
  const s = readSettings({}, '/w');
  assert.equal(s.dataset, 'builtin');
  assert.equal(s.runDir, '/w/.iwb/runs');
  assert.equal(s.chromium, findChromium(undefined)?.path, 'the resolved browser (test/chromium.test.ts covers the order)');
  const here = process.execPath;
  assert.equal(readSettings({ IWB_AGENT_STEP_TIMEOUT_MS: '2500', IWB_CHROMIUM: here }).agentStepTimeoutMs, 2500);
  assert.equal(readSettings({ IWB_CHROMIUM: here }).chromium, here);
  assert.throws(() => readSettings({ IWB_CHROMIUM: '/opt/no-such-chromium' }), /IWB_CHROMIUM: no such file/);
  for (const bad of ['abc', '0', '-2', '1.5']) assert.throws(() => readSettings({ IWB_WORKERS: bad }), /IWB_WORKERS/, `IWB_WORKERS=${bad}`);
  assert.equal(readSettings({ IWB_WORKERS: '3' }).workers, 3);
  assert.throws(() => readSettings({ IWB_ALLURE: 'yes please' }), /IWB_ALLURE/);
  assert.throws(() => readSettings({ IWB_AGENT_STEP_TIMEOUT_MS: 'soon' }), /IWB_AGENT_STEP_TIMEOUT_MS/);
  assert.throws(() => readSettings({ IWB_STEP_CAP: '-3' }), /IWB_STEP_CAP/);
  assert.equal(s.episodeTimeoutMs, 3_600_000, 'an episode gets 60 minutes by default');
  assert.equal(readSettings({ IWB_EPISODE_TIMEOUT: '90m' }).episodeTimeoutMs, 5_400_000);
  assert.equal(readSettings({ IWB_EPISODE_TIMEOUT: '2500' }).episodeTimeoutMs, 2500);
  assert.throws(() => readSettings({ IWB_EPISODE_TIMEOUT: 'an hour' }), /IWB_EPISODE_TIMEOUT/);
});

test('price table: inline JSON or a file; errors name the variable or the file and the field', async () => {
  assert.deepEqual(loadPriceTable(undefined), {});
  assert.deepEqual(loadPriceTable('{"m": {"promptPerMTok": 1, "completionPerMTok": 2}}'), { m: { promptPerMTok: 1, completionPerMTok: 2 } });
  assert.throws(() => loadPriceTable('{"m": {"promptPerMTok": "cheap", "completionPerMTok": 2}}'), /IWB_PRICES: field m\.promptPerMTok/);
  assert.throws(() => loadPriceTable('{nope'), /environment variable IWB_PRICES: cannot read the price table as JSON/);
  const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-prices-')), 'prices.json');
  await fs.writeFile(file, JSON.stringify({ m: { promptPerMTok: 1 } }));
  assert.throws(() => loadPriceTable(file), (e: Error) => e.message.startsWith(file) && /field m\.completionPerMTok/.test(e.message));
});
