import os from 'node:os';
import { Semaphore } from '../protocol/semaphore.js';

/**
 * Page work of this process, at most a few units at once, first come first served. Every page operation has a
 * time limit after which the page counts as hung (site/unresponsive.ts), and a hung page fails its slot: so a
 * limit must measure the page, never the harness. Judge sessions that wait on a model cost nothing, so a run
 * may hold dozens (cases ahead x slots in flight); if all of them worked their pages at once when their replies
 * came, 2 cores would share out seconds of rendering and a sound page could miss its limit. A unit's clock
 * starts when it gets its turn, inside `work`: the time spent queued here is never counted against the page.
 */
export const PAGE_WORK_WIDTH = Math.max(2, os.availableParallelism() * 2);

const gate = new Semaphore(PAGE_WORK_WIDTH);
let units = 0;

/** Units of page work this process has started: a test of a caller reads it to see the caller takes turns. */
export function pageWorkUnits(): number {
  return units;
}

/**
 * One unit of page work (opening a page, labelling it and reading it, one action, a verify render, a probe):
 * run when this process's page work has room. A unit must not enter another: it would wait on itself.
 */
export function pageWork<T>(work: () => Promise<T>): Promise<T> {
  units++;
  return gate.run(work);
}
