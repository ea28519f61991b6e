import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Browser } from '@playwright/test';
import type { ModelClient } from '../llm/client.js';
import type { Difficulty } from '../slots/schema.js';
import type { Action, Observation } from './actions.js';
import { auditReport, runAudit } from './audit.js';
import type { LiveSite } from '../site/live-site.js';
import { onLiveBrowser } from '../site/browser-lost.js';
import { renderPage } from '../site/render.js';
import type { TrajectoryStep } from './trajectory.js';
import { addStepUsage } from './step-usage.js';
import type { StepUsage } from './actions.js';

/**
 * A verify step. With criteria and an auditor model it is the paper's interactive audit (agent/audit.ts);
 * otherwise one screenshot of the page. Failed audits in a row are counted here; at the limit for the
 * case's difficulty the episode stops as a verification deadlock, as the paper's harness stops it.
 */

/** Failed audits in a row that end an episode (the paper's error limits). */
export const AUDIT_FAILURE_LIMITS: Record<Difficulty, number> = { easy: 6, middle: 8, hard: 10 };

export interface VerifyContext {
  /** The browser for this step: the run's, connected again if its process died since the last step. */
  browser: (dead?: Browser) => Promise<Browser>;
  live: LiveSite;
  /** Episode folder. */
  dir: string;
  auditor?: ModelClient;
  instruction: string;
  failureLimit: number;
  /** Steps so far: the audit's account of the project is read from them. */
  steps: readonly TrajectoryStep[];
  files: () => Promise<string[]>;
}

export class VerifyRunner {
  private failedInARow = 0;

  constructor(private readonly ctx: VerifyContext) {}

  /** True once the failed audits in a row reached the limit. */
  deadlocked(): boolean {
    return this.failedInARow >= this.ctx.failureLimit;
  }

  async run(action: Extract<Action, { type: 'verify' }>, stepsLeft: number, step: TrajectoryStep): Promise<Observation> {
    const { live, dir } = this.ctx;
    const browser = await this.ctx.browser();
    const site = await live.ensure();
    step.site = { mode: site.mode, problems: site.problems };
    const screenshotFile = `shots/step-${String(step.index).padStart(2, '0')}.png`;
    const screenshotPath = path.join(dir, screenshotFile);

    if (action.criteria && this.ctx.auditor) {
      const outcome = await runAudit({
        browser,
        client: this.ctx.auditor,
        siteUrl: site.url,
        path: action.path,
        criteria: action.criteria,
        instruction: this.ctx.instruction,
        context: await this.account(),
        dir,
        framePrefix: screenshotFile.replace(/\.png$/, ''),
        siteProblems: site.problems,
      });
      this.failedInARow = outcome.record.passed ? 0 : this.failedInARow + 1;
      step.audit = { ...outcome.record, failedInARow: this.failedInARow, failureLimit: this.ctx.failureLimit };
      step.copilotUsage = add(step.copilotUsage, outcome.record.usage);
      const frame = outcome.frame ?? Buffer.alloc(0);
      if (outcome.frame) {
        await fs.writeFile(screenshotPath, frame);
        step.screenshot = screenshotFile;
      }
      return {
        type: 'verified',
        path: action.path,
        title: outcome.title,
        screenshotPng: frame,
        screenshotFile,
        screenshotPath,
        consoleErrors: outcome.consoleErrors,
        siteErrors: site.problems,
        audit: { passed: outcome.record.passed, report: auditReport(action.path, outcome), failedInARow: this.failedInARow, failureLimit: this.ctx.failureLimit },
        stepsLeft,
      };
    }

    try {
      // A browser that died under the render (another case's page may have done it) is no answer about this page.
      const shot = await onLiveBrowser(browser, this.ctx.browser, (b) => renderPage(b, site.url, action.path));
      await fs.writeFile(screenshotPath, shot.png);
      step.screenshot = screenshotFile;
      return {
        type: 'verified',
        path: action.path,
        title: shot.title,
        screenshotPng: shot.png,
        screenshotFile,
        screenshotPath,
        consoleErrors: shot.consoleErrors,
        siteErrors: site.problems,
        stepsLeft,
      };
    } catch (e) {
      const problems = site.problems.length ? ` (site problems: ${site.problems.join('; ')})` : '';
      return { type: 'error', message: `the page ${action.path} could not be rendered: ${(e as Error).message.split('\n')[0]}${problems}`, stepsLeft };
    }
  }

  /** The project so far as the copilot reads it: the questions and answers, earlier audits, the files. */
  private async account(): Promise<string> {
    const lines: string[] = [];
    for (const s of this.ctx.steps) {
      if (s.userTurn) lines.push(`Developer asked: ${s.userTurn.question}\nClient answered: ${s.userTurn.answer}`);
      if (s.audit) lines.push(`Earlier audit (${s.audit.passed ? 'passed' : 'failed'}) of: ${oneLine(s.audit.criteria)}\nFindings: ${oneLine(s.audit.report)}`);
    }
    const files = await this.ctx.files();
    lines.push(files.length ? `Files in the site: ${files.slice(0, 40).join(', ')}${files.length > 40 ? ', …' : ''}` : 'The site has no files yet.');
    return lines.join('\n');
  }
}

function add(a: StepUsage | undefined, b: StepUsage): StepUsage {
  const sum: StepUsage = { promptTokens: 0, completionTokens: 0 };
  addStepUsage(sum, a);
  addStepUsage(sum, b);
  return sum;
}

const oneLine = (s: string) => (s.length > 300 ? `${s.slice(0, 300)}…` : s).replace(/\s*\n\s*/g, ' ');
