import os from 'node:os';
import path from 'node:path';
import { defineConfig, type ReporterDescription } from '@playwright/test';
import { CHROMIUM_ARGS, readSettings } from './config/settings.js';
import { PERSONAS } from './slots/schema.js';
import { personaTag } from './specs/cases.js';

const settings = readSettings();

/**
 * Allure results only when asked for (`IWB_ALLURE=1`): allure-playwright writes a JSON file and copies every
 * attachment per test, which a plain run does not need. Sharded runs write them per shard instead
 * (`--reporter=blob,allure-playwright`) and `allure generate` reads every shard's folder: allure-playwright
 * 3.12.2 under `merge-reports` reads `config.projects[0]` before merge-reports has any and fails the merge.
 */
const allure: ReporterDescription[] =
  process.env.IWB_ALLURE === '1' ? [['allure-playwright', { resultsDir: path.resolve(process.env.IWB_ALLURE_RESULTS || 'allure-results') }]] : [];

/**
 * The benchmark: one project per persona, each selecting its cases by tag (`--project=p-min`). The
 * project's own tests live in test/ and run with `npm test`; they are not benchmark projects.
 */
export default defineConfig({
  testDir: './specs',
  // Preflight of every model role the run uses (llm/preflight.ts): a role that cannot do its part stops the run here.
  globalSetup: './fixtures/global-setup.ts',
  outputDir: 'test-results',
  fullyParallel: true,
  // Episodes and judges wait on browsers and models more than on the CPU: one worker per core.
  workers: Number(process.env.IWB_WORKERS) || os.cpus().length,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 120_000,
  reporter: [
    [process.env.CI ? 'dot' : 'list'],
    ['html', { open: 'never', outputFolder: 'playwright-report' }],
    ['./reporters/iwb-reporter.ts', { outputDir: settings.reportDir, dataset: settings.dataset }],
    ...allure,
  ],
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    launchOptions: { executablePath: settings.chromium, args: CHROMIUM_ARGS },
    // Tracing every slot test costs more than judging it; pass --trace retain-on-failure to debug a run.
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  projects: PERSONAS.map((persona) => ({
    name: persona.toLowerCase(),
    grep: new RegExp(personaTag(persona)),
    metadata: { persona },
  })),
});
