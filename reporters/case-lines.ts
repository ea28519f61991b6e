import type { FullResult, Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { ANNOTATION, SlotAnnotationSchema, VerdictAnnotationSchema } from '../protocol/annotations.js';

/**
 * The run's terminal view: one line per case (its slots' outcomes), then one closing line. A failing agent
 * fails every slot, and Playwright's list reporter prints each failure's message, code frame and
 * attachments: about 25 lines a slot. Those details are in the reports; `--reporter=list` still prints them.
 */

type SlotOutcome = 'passed' | 'failed' | 'errored' | 'unjudged';

interface CaseState {
  title: string;
  tests: number;
  outcomes: SlotOutcome[];
  startedAt: number;
}

/** The case a slot test belongs to, from the slot annotation every slot test carries; undefined for any other test. */
export function caseIdOf(test: Pick<TestCase, 'annotations'>): string | undefined {
  const text = test.annotations.find((a) => a.type === ANNOTATION.slot)?.description;
  if (!text) return undefined;
  const parsed = SlotAnnotationSchema.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data.caseId : undefined;
}

/** What a slot test's outcome means for the benchmark: its recorded verdict, else (no verdict) the harness's error. */
export function slotOutcome(test: TestCase, result: TestResult): SlotOutcome {
  const text = [...result.annotations, ...test.annotations].reverse().find((a) => a.type === ANNOTATION.verdict)?.description;
  const verdict = text ? VerdictAnnotationSchema.safeParse(JSON.parse(text)).data : undefined;
  if (!verdict) return 'errored';
  if (verdict.status === 'pass') return result.status === 'passed' ? 'passed' : 'errored';
  return verdict.status === 'fail' ? 'failed' : verdict.status;
}

export function caseLine(n: number, total: number, state: CaseState, now: number): string {
  const count = (o: SlotOutcome) => state.outcomes.filter((x) => x === o).length;
  const parts = (['passed', 'failed', 'errored', 'unjudged'] as const).filter((o) => count(o) > 0).map((o) => `${count(o)} ${o}`);
  const mark = count('errored') > 0 ? '!' : count('failed') > 0 ? '✘' : '✓';
  const width = String(total).length;
  return `  ${mark} ${String(n).padStart(width)}/${total} ${state.title} · ${state.outcomes.length} slots: ${parts.join(', ')} · ${((now - state.startedAt) / 1000).toFixed(1)} s`;
}

export default class CaseLinesReporter implements Reporter {
  private readonly cases = new Map<string, CaseState>();
  private done = 0;
  private readonly tally: Record<SlotOutcome, number> = { passed: 0, failed: 0, errored: 0, unjudged: 0 };
  private started = Date.now();

  private readonly write: (s: string) => void;

  /** Playwright passes the reporter's options from the config; a test passes where the lines go. */
  constructor(options: { write?: (s: string) => void } = {}) {
    this.write = options.write ?? ((s) => void process.stdout.write(s));
  }

  printsToStdio(): boolean {
    return true;
  }

  onBegin(_config: unknown, suite: Suite): void {
    this.started = Date.now();
    for (const t of suite.allTests()) {
      const key = caseKey(t);
      if (!key) continue;
      const state = this.cases.get(key) ?? { title: t.parent.title, tests: 0, outcomes: [], startedAt: 0 };
      state.tests++;
      this.cases.set(key, state);
    }
    this.write(`Running ${this.cases.size} case(s), ${suite.allTests().length} slot tests: one line per case (--reporter=list for every slot)\n`);
  }

  onTestBegin(test: TestCase): void {
    const state = this.cases.get(caseKey(test) ?? '');
    if (state && !state.startedAt) state.startedAt = Date.now();
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const state = this.cases.get(caseKey(test) ?? '');
    // A retried test ends once per attempt; only its last attempt counts.
    if (!state || result.retry < test.retries && result.status !== 'passed' && result.status !== 'skipped') return;
    const outcome = slotOutcome(test, result);
    state.outcomes.push(outcome);
    this.tally[outcome]++;
    if (state.outcomes.length === state.tests) this.write(`${caseLine(++this.done, this.cases.size, state, Date.now())}\n`);
  }

  onError(error: TestError): void {
    this.write(`error: ${error.message ?? error.value ?? 'unknown'}\n`);
  }

  onStdErr(chunk: string | Buffer, test?: TestCase): void {
    // The harness's own notes ([iwb] ...) and a test's stderr are rare and matter; they pass through.
    this.write(test ? `[${test.parent.title}] ${String(chunk)}` : String(chunk));
  }

  onEnd(result: FullResult): void {
    const slots = Object.values(this.tally).reduce((s, n) => s + n, 0);
    const parts = (Object.entries(this.tally) as [SlotOutcome, number][]).filter(([, n]) => n > 0).map(([o, n]) => `${n} ${o}`);
    const unfinished = this.cases.size - this.done;
    this.write(
      `\n${this.done} case(s) done${unfinished ? `, ${unfinished} not finished` : ''} · ${slots} slot tests: ${parts.join(', ') || 'none'} · ${((Date.now() - this.started) / 1000).toFixed(0)} s · Playwright ${result.status}\n`,
    );
  }
}

/** Trials of a case (--repeat-each) are separate cases here, as in the report. */
function caseKey(test: TestCase): string | undefined {
  const id = caseIdOf(test);
  return id === undefined ? undefined : `${id}\0${test.repeatEachIndex}`;
}
