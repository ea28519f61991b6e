/**
 * node:test events as lines for people and CI logs: one line per top-level test as it ends (so a 10-minute tier
 * shows its progress), a failure's error in full where it happens, and the counts of leaf tests for the closing
 * `N passed, N failed, N skipped` line that test/run.ts prints.
 */
import path from 'node:path';
import { inspect } from 'node:util';

interface TestEventData {
  name: string;
  nesting: number;
  file?: string;
  skip?: boolean | string;
  todo?: boolean | string;
  details: { duration_ms: number; error?: unknown };
}
export interface TestEvent {
  type: string;
  data: TestEventData;
}

const rel = (file: string | undefined) => (file ? path.relative(process.cwd(), file) : '?');
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function errorText(error: unknown): string {
  // node:test wraps the thrown error in a failure with the original as its cause.
  const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
  return inspect(cause, { depth: 4 }).split('\n').map((l) => `    ${l}`).join('\n');
}

export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

/** Turns node:test events into lines and counts; one per tier run (test/run.ts). */
export class Progress {
  readonly counts: Counts = { passed: 0, failed: 0, skipped: 0 };
  readonly timings: { file: string; name: string; ms: number }[] = [];
  /** Each failed leaf's line and error, for the recap at the end of the run (CI shows only a log's tail). */
  readonly failures: string[] = [];
  // A test ends after its subtests: hadChild[n] says whether a test at nesting n ended since the last one above it,
  // so only leaves are counted (a suite that fails because a subtest failed is one failure, not two).
  private readonly hadChild: boolean[] = [];

  line(event: TestEvent): string | undefined {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') return undefined;
    const { data } = event;
    const leaf = !this.hadChild[data.nesting + 1];
    this.hadChild[data.nesting + 1] = false;
    this.hadChild[data.nesting] = true;
    const failed = event.type === 'test:fail';
    if (leaf) {
      if (failed) this.counts.failed += 1;
      else if (data.skip !== undefined || data.todo !== undefined) this.counts.skipped += 1;
      else this.counts.passed += 1;
    }
    if (data.nesting > 0) return failed && leaf ? this.failure(`  ✗ ${rel(data.file)} › … › ${data.name}\n${errorText(data.details.error)}\n`) : undefined;
    this.timings.push({ file: rel(data.file), name: data.name, ms: data.details.duration_ms });
    const where = `${rel(data.file)} › ${data.name} (${seconds(data.details.duration_ms)})`;
    if (failed) return leaf ? this.failure(`✗ ${where}\n${errorText(data.details.error)}\n`) : `✗ ${where}\n`;
    if (data.skip !== undefined) return `- ${where} skipped: ${data.skip === true ? 'no reason given' : data.skip}\n`;
    return `✓ ${where}\n`;
  }

  private failure(text: string): string {
    this.failures.push(text);
    return text;
  }
}

/** A failure's first lines: enough to name it and its error in the recap, not a whole page dump. */
export function recapOf(failure: string, lines = 25): string {
  const all = failure.trimEnd().split('\n');
  return `${all.slice(0, lines).join('\n')}${all.length > lines ? `\n    … ${all.length - lines} more lines above, where it happened` : ''}\n`;
}

export const closingLine = (c: Counts) => `${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped`;
