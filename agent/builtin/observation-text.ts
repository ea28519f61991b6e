import type { Observation } from '../actions.js';

/**
 * How an observation reads to a language model: one text, plus the screenshot for verify steps. The
 * same words serve both protocols, so the two differ only in how the model acts, not in what it is told.
 */
export interface ObservationView {
  text: string;
  image?: { url: string; path: string; title: string; detail?: 'low' | 'high' | 'auto' };
}

export function screenshotDataUrl(png: Buffer): string {
  return `data:image/png;base64,${png.toString('base64')}`;
}

function list(label: string, items: string[]): string {
  if (items.length === 0) return '';
  return `\n${label}:\n${items.map((i) => `- ${i}`).join('\n')}`;
}

function steps(n: number): string {
  return n === 1 ? '\n\nSteps left: 1 (this is your last action; submit now).' : `\n\nSteps left: ${n}.`;
}

export function viewObservation(o: Observation): ObservationView {
  switch (o.type) {
    case 'start':
      return { text: `The client's request:\n\n${o.instruction}${steps(o.stepsLeft)}` };
    case 'answer':
      return { text: `The client answered: ${o.answer}${steps(o.stepsLeft)}` };
    case 'implemented': {
      const written = o.written.length ? `Written: ${o.written.join(', ')}.` : 'No file was written.';
      const deleted = o.deleted.length ? ` Deleted: ${o.deleted.join(', ')}.` : '';
      const healthy = o.errors.length + o.siteErrors.length + o.consoleErrors.length === 0 && o.written.length + o.deleted.length > 0;
      return {
        text:
          written +
          deleted +
          list('Refused', o.errors) +
          list('Problems starting the site', o.siteErrors) +
          list('Browser console errors on the home page', o.consoleErrors) +
          (healthy ? '\nThe home page loaded without errors.' : '') +
          steps(o.stepsLeft),
      };
    }
    case 'verified':
      if (o.audit) {
        const budget = o.audit.passed
          ? ''
          : `\nFailed audits in a row: ${o.audit.failedInARow} of ${o.audit.failureLimit}; at ${o.audit.failureLimit} the work stops.`;
        return {
          text: o.audit.report + budget + list('Problems starting the site', o.siteErrors) + steps(o.stepsLeft),
          ...(o.screenshotPng.length ? { image: { url: screenshotDataUrl(o.screenshotPng), path: o.path, title: o.title } } : {}),
        };
      }
      return {
        text:
          `Opened ${o.path}; page title: ${JSON.stringify(o.title)}.` +
          (o.consoleErrors.length ? list('Browser console errors', o.consoleErrors) : '\nNo console errors.') +
          list('Problems starting the site', o.siteErrors) +
          steps(o.stepsLeft),
        image: { url: screenshotDataUrl(o.screenshotPng), path: o.path, title: o.title },
      };
    case 'error':
      return { text: `Error: ${o.message}${steps(o.stepsLeft)}` };
  }
}
