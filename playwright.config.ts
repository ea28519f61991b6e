import os from 'node:os';
import path from 'node:path';
import { defineConfig, type ReporterDescription } from '@playwright/test';
import { settingsOf, type Settings } from './config/settings.js';
import { browserSandbox, chromiumLaunchOptions } from './config/chromium-sandbox.js';
import { readRunConfig, writeRunConfig } from './config/run-config.js';
import { installRunContext } from './config/run-context.js';
import { publishRunConfig, readRunState } from './config/run-state.js';
import { PERSONAS } from './slots/schema.js';
import { personaSpecFile } from './specs/cases.js';
import { rawProcessEnv } from './config/process-env.js';

/** The run's one binding to the process's environment: everything the run loads after this file takes it from here. */
const env = rawProcessEnv();

/**
 * Every variable, the config file and the browser are checked here, before any test; a mistake is one message.
 * The settings checked are frozen into a file of the run folder (config/run-config.ts) named to the workers.
 * Workers load this file too, and Playwright starts one after every failed slot: a worker only reads that
 * file, never the settings variables of its own environment, and trusts the runner's checks (their modules:
 * dataset loaders, simulated users, sandbox, agents, were a third of what a new worker imported).
 */
async function start(): Promise<Settings> {
  const state = readRunState(env);
  if (state.worker) {
    const run = readRunConfig(state.runConfig);
    installRunContext({ run, env });
    return settingsOf(run);
  }
  const { startRun, exitCodeOf, isUserError } = await import('./launch/start.js');
  try {
    const { settings, run, notes } = await startRun(env, process.cwd());
    publishRunConfig(writeRunConfig(settings.runDir, run), env);
    installRunContext({ run, env });
    process.stderr.write(notes.map((n) => `[iwb] ${n}\n`).join(''));
    return settings;
  } catch (e) {
    if (!isUserError(e)) throw e;
    process.stderr.write(`[iwb] ${e.message}\n`);
    process.exit(exitCodeOf(e));
  }
}
const settings = await start();
const sharedBrowser = readRunState(env).browserWs;

/** The Playwright HTML report of this run: in its report folder (IWB_REPORT_DIR). */
const htmlReportDir = path.join(settings.reportDir, 'playwright-report');

/**
 * Allure results only when asked for (`IWB_ALLURE=1`): allure-playwright writes a JSON file and copies every
 * attachment per test, which a plain run does not need. Sharded runs write them per shard instead
 * (`--reporter=blob,allure-playwright`) and `allure generate` reads every shard's folder: allure-playwright
 * 3.12.2 under `merge-reports` reads `config.projects[0]` before merge-reports has any and fails the merge.
 */
const allure: ReporterDescription[] =
  settings.allure ? [['allure-playwright', { resultsDir: settings.allureResults }]] : [];

/**
 * The benchmark: one project per persona, each running its persona's spec file (`--project=p-min`). The
 * project's own tests live in test/ and run with `npm test`; they are not benchmark projects.
 */
export default defineConfig({
  testDir: './specs',
  // Preflight of every model role the run uses (llm/preflight.ts): a role that cannot do its part stops the run here.
  globalSetup: './fixtures/global-setup.ts',
  outputDir: 'test-results',
  fullyParallel: true,
  // Episodes and judges wait on browsers and models more than on the CPU: one worker per core.
  workers: settings.workers ?? os.cpus().length,
  forbidOnly: Boolean(env.CI),
  retries: 0,
  timeout: 120_000,
  // One line per case in the terminal (--reporter=list prints every slot and its failure); the HTML report
  // lives in the run's report folder beside summary.html, so a run never overwrites another folder's report.
  reporter: [
    ['./reporters/case-lines.ts'],
    ['html', { open: 'never', outputFolder: htmlReportDir }],
    // Profile, dataset and judge come from what the tests recorded (fixtures/run-annotation.ts), not from here.
    ['./reporters/iwb-reporter.ts', { outputDir: settings.reportDir, htmlReportDir, ...(settings.prices ? { prices: settings.prices } : {}) }],
    // Not a report: runs and judges the selected cases ahead of their tests, in this process (IWB_CASES_AHEAD).
    // A reporter because only a reporter sees which tests were selected; `--add-reporter` keeps it, `--reporter` drops it.
    ['./fixtures/cases-ahead.ts'],
    ...allure,
  ],
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    // Chromium keeps its own sandbox where the machine allows (config/chromium-sandbox.ts).
    launchOptions: chromiumLaunchOptions(settings.chromium, browserSandbox(settings.chromiumSandbox)),
    // Workers share the browser server fixtures/global-setup.ts starts (the runner itself never opens one).
    ...(sharedBrowser ? { connectOptions: { wsEndpoint: sharedBrowser } } : {}),
    // Tracing every slot test costs more than judging it; pass --trace retain-on-failure to debug a run.
    trace: 'off',
    // The judge keeps its own screenshot of a failed slot (fixtures/judge-case.ts). Playwright's would add one
    // per browser context the test closed: the case's first slot test judges every slot, one context each.
    screenshot: 'off',
    // A service worker answers requests the judged browser's route never sees (fixtures/index.ts).
    serviceWorkers: 'block',
  },
  projects: PERSONAS.map((persona) => ({
    name: persona.toLowerCase(),
    // One spec file per persona (specs/declare.ts says why); the @p-min tags still filter with --grep.
    testMatch: personaSpecFile(persona),
    metadata: { persona },
  })),
});
