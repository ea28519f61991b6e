import type { Browser } from '@playwright/test';
import type { Observation } from '../actions.js';
import { shrinkToJpeg } from '../image.js';
import type { ObservationView } from './observation-text.js';

/**
 * How observations read in the paper's protocol: no step count (the paper's agent is never told how
 * many turns it has left), build feedback in a few lines, and the audit's last frame as a small JPEG at
 * low detail (at most 800x800, quality 60), as the paper's harness sends it.
 */

const PATHS =
  'Take exactly one path per reply: ask the client (ask_user), build (file and shell actions inside one ' +
  '<boltArtifact> ... </boltArtifact>), verify (a <TestCriteria> block, then screenshot_validated) or finish. ' +
  'File and shell actions outside an artifact are not a path of their own.';

export async function paperView(o: Observation, browser: Browser | undefined): Promise<ObservationView> {
  switch (o.type) {
    case 'start':
      return { text: o.instruction };
    case 'answer':
      return { text: o.answer };
    case 'implemented': {
      const lines = ['Build feedback:'];
      if (o.written.length) lines.push(`Files written: ${o.written.join(', ')}.`);
      else lines.push('No file was written.');
      for (const e of o.errors) lines.push(`Write refused: ${e}`);
      for (const e of o.siteErrors) lines.push(`Install or start error: ${e}`);
      for (const e of o.consoleErrors) lines.push(`Browser console error: ${e}`);
      if (o.errors.length + o.siteErrors.length + o.consoleErrors.length === 0) lines.push('The site is running. Verify it or finish.');
      return { text: lines.join('\n') };
    }
    case 'verified': {
      const text = o.audit
        ? o.audit.report
        : [`Opened ${o.path}; page title: ${JSON.stringify(o.title)}.`, ...o.consoleErrors.map((e) => `Browser console error: ${e}`)].join('\n');
      const siteErrors = o.siteErrors.map((e) => `Install or start error: ${e}`);
      if (!o.screenshotPng.length || !browser) return { text: [text, ...siteErrors].join('\n') };
      const { jpeg } = await shrinkToJpeg(browser, o.screenshotPng);
      return {
        text: [text, ...siteErrors].join('\n'),
        image: { url: `data:image/jpeg;base64,${jpeg.toString('base64')}`, path: o.path, title: o.title, detail: 'low' },
      };
    }
    case 'error':
      return { text: `Warning: your last reply could not be carried out: ${o.message}\n${PATHS} Answer again in the right format.` };
  }
}
