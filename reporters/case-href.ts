import { createHash } from 'node:crypto';
import type { CaseResult } from './report-schema.js';

/**
 * Where a case's page is, on its own: every slot test links to it (fixtures/slot-sheet.ts), and the module
 * that gathers the pages (case-view.ts) imports trajectory schemas a slot test has no use for.
 */

/** A file name per (agent, case, trial): readable, and unique even when sanitising makes two names meet. */
export function caseSlug(agent: string, caseId: string, trial: number): string {
  const readable = `${agent}--${caseId}${trial ? `--t${trial}` : ''}`.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 80);
  const hash = createHash('sha256').update(`${agent}\0${caseId}\0${trial}`).digest('hex').slice(0, 8);
  return `${readable}-${hash}`;
}

export const caseHref = (c: Pick<CaseResult, 'agent' | 'id' | 'trial'>): string => `cases/${caseSlug(c.agent, c.id, c.trial)}.html`;
