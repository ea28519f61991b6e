import { test } from '@playwright/test';

/**
 * The judge runs inside Playwright slot tests and also outside them (the CLI, calibration, node:test).
 * Inside a test, each judge action becomes a test.step and each labelled screenshot an attachment, so
 * the HTML report shows the judge's walk; outside, these calls do nothing but run the work.
 */

function inTest(): boolean {
  try {
    test.info();
    return true;
  } catch {
    return false;
  }
}

export async function judgeStep<T>(title: string, run: () => Promise<T>): Promise<T> {
  return inTest() ? test.step(title, run) : run();
}

export async function attachPng(name: string, body: Buffer): Promise<boolean> {
  if (!inTest()) return false;
  await test.info().attach(name, { body, contentType: 'image/png' });
  return true;
}
