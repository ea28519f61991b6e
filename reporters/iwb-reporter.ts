import { promises as fs } from 'node:fs';
import { enforcedSandbox, weakerIsolationLine } from '../sandbox/enforced.js';
import { parseAgentNetworkSetting } from '../sandbox/endpoints.js';
import { browserSandbox } from '../config/chromium-sandbox.js';
import path from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { formatText } from './format.js';
import { scoreCase, type SlotRecord } from './metrics.js';
import { ANNOTATION, type UsageEntry, EpisodeAnnotationSchema, SlotAnnotationSchema, VerdictAnnotationSchema, VisualAnnotationSchema } from '../protocol/annotations.js';
import { episodeMeta } from './report.js';
import { copyCasePages } from './case-viewer.js';
import { keepRunRecords, RunMetaSchema } from './run-records.js';
import { writeReportFolder } from './write-report.js';
import type { SlotExtras } from './case-view.js';
import { runHealth, runLoss } from './run-health.js';
import { judgeLoss, toleranceFrom } from '../stats/lost-input.js';
import { readSettings, settingsOf, SETTINGS_VARIABLES, type Settings } from '../config/settings.js';
import { readRunState } from '../config/run-state.js';
import { maybeRunContext } from '../config/run-context.js';
import { rawProcessEnv } from '../config/process-env.js';
import { reportedRun } from './run-identity.js';
import { costOf, loadPriceTable } from '../llm/cost.js';
import type { PriceTable } from '../llm/usage.js';

export interface IwbReporterOptions {
  /** Folder for report.json and report.md; IWB_REPORT_DIR or iwb-report/ by default (set in the config). */
  outputDir?: string;
  /** Only for tests that recorded no run (blobs of older builds); otherwise the dataset the tests recorded. */
  dataset?: string;
  /** IWB_PRICES by default: inline JSON or a JSON file of US dollars per million tokens per model. */
  prices?: string;
  /** The Playwright HTML report's folder, which gets a copy of summary.html; playwright-report/ by default. */
  htmlReportDir?: string;
}

/**
 * Gathers one record per slot test from its annotations, then builds and writes the report. Its figures come
 * from nothing but what Playwright hands every reporter (the profile, dataset and judge included: each test
 * recorded its run), so merge-reports gives the same figures in a process with another environment.
 *
 * Its own settings (report folder, prices, tolerance, isolation) are the run's frozen ones inside a run, and the
 * reporting process's environment under merge-reports without a config: Playwright loads this file as an entry
 * point then, with nothing before it to hand it an environment.
 */
export default class IwbReporter implements Reporter {
  private readonly last = new Map<string, SlotRecord | null>();
  /** Per slot test, what only the case pages show: the judge's name and its screenshots. */
  private readonly extras = new Map<string, SlotExtras>();
  /** The run each slot test result recorded (`_iwb.run`), every one seen: blobs of two runs may share test ids. */
  private readonly runs: (string | undefined)[] = [];
  private readonly settings: Settings;
  private readonly env: Readonly<Record<string, string | undefined>>;
  private readonly outputDir: string;
  private readonly dataset: string;
  private readonly prices: PriceTable;
  private readonly htmlReportDir: string;
  private total = 0;
  private tokens: { prompt: number; completion: number; unknown?: boolean } = { prompt: 0, completion: 0 };
  /** Null once a model without a price has spent tokens: an unknown cost is not shown as a low one. */
  private cost: number | null = 0;
  private lastProgress = 0;
  private done = new Set<string>();
  private started = Date.now();

  constructor(options: IwbReporterOptions = {}) {
    const context = maybeRunContext();
    this.env = context?.env ?? rawProcessEnv();
    this.settings = context ? settingsOf(context.run) : readSettings(this.env);
    this.outputDir = path.resolve(options.outputDir ?? this.settings.reportDir);
    this.dataset = options.dataset ?? this.settings.dataset;
    this.prices = loadPriceTable(options.prices ?? this.settings.prices);
    // The html reporter lets PLAYWRIGHT_HTML_OUTPUT_DIR override its configured folder; so must we, to find it.
    this.htmlReportDir = path.resolve(readRunState(this.env).playwrightHtmlOutputDir || options.htmlReportDir || 'playwright-report');
  }

  printsToStdio(): boolean {
    return false;
  }

  onBegin(_config: FullConfig, suite: Suite): void {
    this.started = Date.now();
    this.total = new Set(suite.allTests().filter((t) => caseOf(t)).map((t) => `${caseOf(t)}\0${t.repeatEachIndex}`)).size;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    // Retries call onTestEnd once per attempt; the last attempt is the test's outcome.
    this.last.set(test.id, toRecord(test, result));
    if (caseOf(test)) {
      const recorded = [...new Set([...result.annotations, ...test.annotations].filter((a) => a.type === ANNOTATION.run).map((a) => a.description))];
      this.runs.push(...(recorded.length ? recorded : [undefined]));
    }
    this.extras.set(test.id, slotExtras(test, result));
    const id = caseOf(test);
    const key = `${id}\0${test.repeatEachIndex}`;
    const siblings = test.parent.allTests();
    if (id && !this.done.has(key) && siblings.every((t) => this.last.has(t.id))) {
      this.done.add(key);
      // The case's cost as the report will count it (scoreCase), so the running total and the report agree.
      const records = siblings.map((t) => this.last.get(t.id)).filter((r): r is SlotRecord => Boolean(r));
      if (records.length) for (const u of scoreCase(records).usage) this.count(u);
      this.progress();
    }
  }

  private count(u: UsageEntry): void {
    this.tokens.prompt += u.prompt;
    this.tokens.completion += u.completion;
    if (u.unknown) this.tokens.unknown = true;
    const c = u.unknown ? null : costOf(u.model, u, this.prices);
    this.cost = this.cost === null || c === null ? null : this.cost + c;
  }

  /** A line every 10% of cases or 30 s: enough to follow, never a flood (the case lines name each case as it ends). */
  private progress(): void {
    const n = this.done.size;
    const step = Math.max(1, Math.ceil(this.total / 10));
    if (n % step !== 0 && n !== this.total && Date.now() - this.lastProgress < 30_000) return;
    this.lastProgress = Date.now();
    const tokens = this.tokens.prompt + this.tokens.completion;
    const elapsed = ((Date.now() - this.started) / 1000).toFixed(0);
    const spent = this.tokens.unknown ? 'tokens unknown (a provider gave no usage), cost unknown' : tokens ? `${tokens.toLocaleString('en-US')} tokens so far, ${this.cost === null ? 'cost unknown (IWB_PRICES)' : `$${this.cost.toFixed(4)}`}` : 'no model tokens';
    process.stderr.write(`[iwb] cases done ${n}/${this.total} · ${elapsed} s · ${spent}\n`);
  }

  async onEnd(result: FullResult): Promise<{ status?: FullResult['status'] } | undefined> {
    const records = [...this.last.values()].filter((r): r is SlotRecord => Boolean(r));
    // `--list`, or a filter that matched nothing, ends without a slot test: the last real report stays.
    if (records.length === 0) {
      process.stdout.write(`[iwb] no slot test ran; ${path.join(this.outputDir, 'report.json')} left as it was\n`);
      return undefined;
    }
    const agents = [...new Set(records.map((r) => r.episode?.agent).filter((a): a is string => Boolean(a)))].sort();
    const settings = this.settings;
    let run: ReturnType<typeof reportedRun>;
    try {
      run = reportedRun(this.runs, { profile: settings.profile, dataset: this.dataset });
    } catch (e) {
      // No report is better than one that scores two runs under one run's rules. Said here (Playwright hands a
      // reporter's error only to the reporters' onError) and thrown: a reporter's error is what fails
      // merge-reports, which ignores a returned status, as well as a run.
      const message = `[iwb] no report written: ${(e as Error).message}`;
      process.stderr.write(`${message}\n`);
      throw new Error(message, { cause: e });
    }
    // What the episodes said they ran in, with what this machine and these settings enforce around them.
    const sandbox = enforcedSandbox({
      isolations: records.map((r) => r.episode?.sandbox).filter((s): s is string => Boolean(s)),
      agentNetwork: parseAgentNetworkSetting(settings.agentNetwork),
      browser: browserSandbox(settings.chromiumSandbox),
      root: process.getuid?.() === 0,
    });
    // In the shape the run folder keeps it, so `iwb report` builds the same report.json byte for byte. The start
    // and duration are Playwright's: after merge-reports they span the shards (first start to last end), where
    // this process's own clock would time only the merge.
    const meta = RunMetaSchema.parse({ startedAt: new Date(result.startTime).toISOString(), durationMs: Math.round(result.duration), dataset: run.dataset, agents, playwrightStatus: result.status, profile: run.profile, sandbox, ...episodeMeta(records) });
    const interrupted = result.status === 'interrupted' || result.status === 'timedout' || this.done.size < this.total;
    const withExtras = [...this.last].flatMap(([id, r]) => (r ? [{ ...r, ...(this.extras.get(id) ?? { images: [] }) }] : []));
    const { report, summary, pages } = await writeReportFolder(this.outputDir, { records: withExtras, meta, interrupted, prices: this.prices });
    // Kept in the run folder for `iwb report`; a merge of blobs (no run id in this process) has no run folder of its own.
    const { runId } = readRunState(this.env);
    const kept = runId ? await keepRunRecords(settings.runDir, { runId, meta, interrupted, records: withExtras }).catch((e: Error) => {
      process.stderr.write(`[iwb] the slot records were not kept for \`iwb report\`: ${e.message}\n`);
      return null;
    }) : null;
    // Only into a report the html reporter wrote in this run (it ran before us): a folder left by an earlier run is stale.
    const html = await fs.stat(path.join(this.htmlReportDir, 'index.html')).catch(() => null);
    const served = html && html.mtimeMs >= this.started - 2000 ? path.join(this.htmlReportDir, 'summary.html') : null;
    if (served) {
      await fs.copyFile(summary, served);
      await copyCasePages(this.outputDir, this.htmlReportDir);
    }
    // Playwright takes no custom flags, so the run's tolerance is a setting (IWB_MAX_ERRORED); `iwb report` reads the same.
    const loss = judgeLoss(runLoss(report), toleranceFrom(settings.maxErrored, SETTINGS_VARIABLES.maxErrored));
    const health = [...runHealth(report), ...(loss.line ? [loss.line] : [])].map((l) => `[iwb] ${l}\n`).join('');
    process.stdout.write(
      `\n${weakerIsolationLine(sandbox) ? `[iwb] ${weakerIsolationLine(sandbox)}\n` : ''}${health}${formatText(report)}\nreport: ${path.join(this.outputDir, 'report.json')} · summary: ${summary}${served ? ` (and ${served})` : ''} · ${pages.pages} case pages in ${path.join(this.outputDir, 'cases')}${pages.note ? ` (${pages.note})` : ''}${kept ? ` · slot records kept in ${kept} (re-score: npx iwb report ${settings.runDir})` : ''}\n`,
    );
    // A run whose figures lost input past the tolerance is not a clean measurement: exit 1 even if every test passed.
    return loss.ok || result.status !== 'passed' ? undefined : { status: 'failed' };
  }
}

function caseOf(test: TestCase): string | undefined {
  const a = test.annotations.find((x) => x.type === ANNOTATION.slot);
  return a?.description ? (JSON.parse(a.description) as { caseId: string }).caseId : undefined;
}

/**
 * A slot test's status comes from the verdict it recorded. A test that failed or was skipped without one
 * (a timeout, a crashed fixture, a worker lost) is errored: the harness did not decide it.
 */
function toRecord(test: TestCase, result: TestResult): SlotRecord | null {
  const find = (type: string) => [...result.annotations, ...test.annotations].reverse().find((a) => a.type === type)?.description;
  const slotText = find(ANNOTATION.slot);
  if (!slotText) return null;
  const slot = SlotAnnotationSchema.parse(JSON.parse(slotText));
  const trial = test.repeatEachIndex;
  const verdictText = find(ANNOTATION.verdict);
  const episodeText = find(ANNOTATION.episode);
  const episode = episodeText ? EpisodeAnnotationSchema.parse(JSON.parse(episodeText)) : undefined;
  const visualText = find(ANNOTATION.visual);
  const visual = visualText ? VisualAnnotationSchema.parse(JSON.parse(visualText)) : undefined;
  if (verdictText) {
    const v = VerdictAnnotationSchema.parse(JSON.parse(verdictText));
    const status = v.status === 'pass' && result.status !== 'passed' ? 'errored' : v.status;
    const judgeUsage = v.tokens && v.model ? { judgeUsage: { role: 'judge' as const, model: v.model, ...v.tokens } } : {};
    return { ...slot, trial, status, evidence: v.evidence, episode, visual, judge: v.judge, ...(v.cached ? { cachedVerdict: true } : {}), ...judgeUsage, ...(v.injection ? { injection: true } : {}), ...(v.unmentioned ? { unmentioned: true } : {}) };
  }
  const why = result.error?.message?.split('\n')[0] ?? `test ${result.status} without a verdict`;
  return { ...slot, trial, status: 'errored', evidence: why, episode, visual };
}

/** The verdict's judge and the test's image attachments (allure's message attachments are not images). */
function slotExtras(test: TestCase, result: TestResult): SlotExtras {
  const verdict = [...result.annotations, ...test.annotations].reverse().find((a) => a.type === ANNOTATION.verdict)?.description;
  const judge = verdict ? VerdictAnnotationSchema.safeParse(JSON.parse(verdict)).data?.judge : undefined;
  const images = (result.attachments ?? [])
    .filter((a) => a.contentType === 'image/png' && (a.path || a.body))
    .map((a) => ({ name: a.name, ...(a.path ? { path: a.path } : {}), ...(a.body ? { body: a.body } : {}) }));
  return { images, ...(judge ? { judge } : {}) };
}
