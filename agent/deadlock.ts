import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ModelClient } from '../llm/client.js';
import { describeError, isLlmError } from '../llm/errors.js';
import type { StepUsage } from './actions.js';
import { DeadlockAnalysisSchema, type DeadlockAnalysis, type TrajectoryStep } from './trajectory.js';
import { addStepUsage } from './step-usage.js';

/**
 * The post-mortem the paper's harness runs when an episode ends in a verification deadlock: the audit
 * model reads the failed audits and the last frame and names a root cause. The builder never reads it
 * (the episode is over); it is kept in the trajectory for whoever studies why agents get stuck. It is an
 * extra, so a failure here is noted in the record and never changes how the episode ended.
 */

const SYSTEM = readFileSync(new URL('./prompts/deadlock.md', import.meta.url), 'utf8').trim();

export interface DeadlockReview {
  analysis?: DeadlockAnalysis;
  /** Why there is no analysis. */
  analysisError?: string;
  usage: StepUsage;
}

export async function analyseDeadlock(client: ModelClient, instruction: string, steps: readonly TrajectoryStep[], dir: string): Promise<DeadlockReview> {
  const usage = { promptTokens: 0, completionTokens: 0 };
  const failed = steps.filter((s) => s.audit).slice(-10);
  const trace = failed
    .map((s, i) => `Audit ${i + 1} (step ${s.index}) of ${s.args.path ?? '/'}:\nCriteria: ${s.audit!.criteria}\nActions: ${s.audit!.turns.map((t) => `${t.action} -> ${t.outcome}`).join('; ') || 'none'}\nFindings: ${s.audit!.report}`)
    .join('\n\n');
  const shot = [...failed].reverse().find((s) => s.screenshot)?.screenshot;
  const frame = shot ? await fs.readFile(path.join(dir, shot)).catch(() => null) : null;
  try {
    const r = await client.structured(
      [
        { role: 'system', content: SYSTEM },
        {
          role: 'user',
          content: [
            { type: 'text', text: `The client's request:\n${instruction}\n\nThe failed checks, oldest first:\n${trace}` },
            ...(frame ? [{ type: 'image' as const, url: `data:image/png;base64,${frame.toString('base64')}`, detail: 'high' as const }] : []),
          ],
        },
      ],
      DeadlockAnalysisSchema,
      'deadlock_analysis',
    );
    addStepUsage(usage, r.usage);
    return r.ok ? { analysis: r.value, usage } : { analysisError: `the replies never matched their schema: ${r.error.issues.slice(0, 300)}`, usage };
  } catch (e) {
    return { analysisError: isLlmError(e) ? describeError(e) : String((e as Error)?.message ?? e).slice(0, 300), usage };
  }
}
