import type { Browser } from '@playwright/test';
import type { ModelClient } from '../llm/client.js';
import type { IntentAnnotation, VisualAnnotation } from '../protocol/annotations.js';
import { hasReasoningText } from '../protocol/build.js';
import type { Case } from '../slots/schema.js';
import { getCrash, type CrashFinding } from './crash-check.js';
import { getIntent, type EpisodeOnDisk } from './intent-cache.js';
import { getVisual } from './visual-cache.js';

export interface EpisodeJudgements {
  /** IAS and the LLM-judged CHR; absent without a judge model, or for a trajectory with no reasoning text to judge. */
  intent?: IntentAnnotation;
  /** The deterministic visual check of the final page, with the judge model's 1-5 scores when it has one. */
  visual: VisualAnnotation;
  /** The crash rule's finding, when the profile applies it. */
  crash?: CrashFinding;
}

/**
 * Everything judged once per episode rather than per slot: the crash rule (under a profile that has it), the
 * trajectory's intent alignment and the final page's visual check and score. Each is kept beside the
 * trajectory, so every slot test of the case (and every rerun) reads the same judgement.
 */
export async function judgeEpisode(req: { episode: EpisodeOnDisk; case: Case; browser: Browser; url: string; client?: ModelClient; crashRule?: boolean }): Promise<EpisodeJudgements> {
  // Before anything is judged: a crashed site fails every slot, whatever a judge would say.
  const crash = req.crashRule ? await getCrash(req.episode.dir, req.browser, req.url) : undefined;
  // A trajectory with no reasoning text and no question gets the profile's fixed IAS (reporters/metrics.ts
  // intentScore: 1 under paper, none under iwb) and has no question for the LLM CHR: a judgement would be
  // paid for and dropped. The same predicate sets the episode's `hasReasoning`, so the two cannot disagree.
  // The two wait on the judge model apart from each other: asked at once, a case waits for one reply, not two.
  const [intent, v] = await Promise.all([
    req.client && hasReasoningText(req.episode.trajectory.steps) ? getIntent(req.episode, req.case, req.client) : undefined,
    getVisual(req.episode.dir, req.browser, req.url, { client: req.client, instruction: req.case.task.goldInstruction }),
  ]);
  const visual: VisualAnnotation = {
    bug: v.bug,
    findings: v.findings.map((f) => `${f.check}: ${f.detail}`),
    ...(crash ? { crash } : {}),
    ...(v.scores ? { scores: { layout: v.scores.layout, creativeAlignment: v.scores.creativeAlignment, overall: v.scores.overall } } : {}),
    ...(v.scoreUsage ? { usage: v.scoreUsage } : {}),
  };
  return { ...(intent ? { intent } : {}), visual, ...(crash ? { crash } : {}) };
}
