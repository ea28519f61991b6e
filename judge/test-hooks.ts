import { AsyncLocalStorage } from 'node:async_hooks';
import { test } from '@playwright/test';

/**
 * The judge runs inside Playwright slot tests and also outside them (the CLI, calibration, node:test).
 * Inside a test, each judge action becomes a test.step and each labelled screenshot an attachment, so
 * the HTML report shows the judge's walk; outside, these calls do nothing but run the work.
 *
 * A slot judged ahead of its own test (fixtures/judge-case.ts judges a case's slots in its first slot's
 * test) is judged inside `capturing`: its steps and screenshots are kept for the slot's own test to show,
 * rather than landing in the test that happens to be running.
 */

export interface CapturedJudging {
  steps: string[];
  pngs: { name: string; body: Buffer }[];
}

const capture = new AsyncLocalStorage<CapturedJudging>();

export function capturing<T>(into: CapturedJudging, run: () => Promise<T>): Promise<T> {
  return capture.run(into, run);
}

function inTest(): boolean {
  try {
    test.info();
    return true;
  } catch {
    return false;
  }
}

export async function judgeStep<T>(title: string, run: () => Promise<T>): Promise<T> {
  const captured = capture.getStore();
  if (captured) {
    captured.steps.push(title);
    return run();
  }
  return inTest() ? test.step(title, run) : run();
}

export async function attachPng(name: string, body: Buffer): Promise<boolean> {
  const captured = capture.getStore();
  if (captured) {
    captured.pngs.push({ name, body });
    return true;
  }
  if (!inTest()) return false;
  await test.info().attach(name, { body, contentType: 'image/png' });
  return true;
}
