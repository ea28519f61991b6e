import { after, before } from 'node:test';
import type { Browser } from '@playwright/test';
import { calibrationPartTest } from './calibration-part.js';
import { launch } from './judge-support.js';

/** The second half of the built-in calibration (the first is in judge-calibration.test.ts): the two files run at once. */
let browser: Browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

calibrationPartTest(1, 2, () => browser);
