import { DIFFICULTIES, PERSONAS } from '../protocol/enums.js';

/** Values with a meaning to their order read in that order (easy, middle, hard; the personas as the paper lists them). */
const ORDERED: readonly (readonly string[])[] = [DIFFICULTIES, PERSONAS];

function comparePart(a: string, b: string): number {
  for (const order of ORDERED) {
    const [ia, ib] = [order.indexOf(a), order.indexOf(b)];
    if (ia >= 0 && ib >= 0) return ia - ib;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Group keys as a reader expects them: `easy` before `hard`, `P-MIN/middle` before `P-MIN/hard`; any
 * other key (an agent's name) in code-point order, so a report is ordered the same on every machine.
 */
export function compareGroupKeys(a: string, b: string): number {
  const [pa, pb] = [a.split('/'), b.split('/')];
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const c = comparePart(pa[i]!, pb[i]!);
    if (c !== 0) return c;
  }
  return pa.length - pb.length;
}

/** A group record's entries in reading order, whatever order the report.json it came from holds them in. */
export function inReadingOrder<T>(groups: Readonly<Record<string, T>>): [string, T][] {
  return Object.entries(groups).sort(([a], [b]) => compareGroupKeys(a, b));
}
