import { PROFILES, type Profile } from '../config/profiles.js';
import type { EpisodeAnnotation, UsageEntry, VisualAnnotation } from '../protocol/annotations.js';
import { isJudged } from '../protocol/enums.js';
import type { SlotRecord } from './slot-record.js';
import type { CaseResult } from './report-schema.js';
import { stepFigures } from './step-reading.js';
import { addUsage } from '../llm/usage.js';

export type { CaseResult } from './report-schema.js';

export type { SlotRecord } from './slot-record.js';

/** The profile rules per-case scoring reads. */
export type ScoringRules = Pick<Profile, 'iasWithoutReasoning' | 'stepCounting' | 'erroredVerdict' | 'unevaluatedCase' | 'tcrWithoutPositive'>;

const judged = isJudged;

/**
 * Groups slot records by agent, case and trial, in first-seen order, and scores each: blobs of several
 * agents' runs merged into one report keep their cases apart.
 */
export function caseResults(records: readonly SlotRecord[], rules: ScoringRules = PROFILES.iwb): CaseResult[] {
  const byCase = new Map<string, SlotRecord[]>();
  for (const r of records) {
    const key = `${r.episode?.agent ?? ''}\0${r.caseId}\0${r.trial ?? 0}`;
    const list = byCase.get(key) ?? [];
    list.push(r);
    byCase.set(key, list);
  }
  return [...byCase.values()].map((slots) => scoreCase(slots, rules));
}

/**
 * Passed weight over judged weight of the given slots, with a weighting: the paper's W_i, every slot 1,
 * or c_tech alone. Null when no slot of the set was judged.
 */
export function weightedPassRate(slots: readonly SlotRecord[], weight: (s: SlotRecord) => number): number | null {
  const done = slots.filter(judged);
  const total = sum(done.map(weight));
  return total > 0 ? sum(done.filter((s) => s.status === 'pass').map(weight)) / total : null;
}

/**
 * CHR from the simulated user's retrieval record, as the paper counts it: the share of the given slots that
 * some question hit (retrieved). Over all of a case's slots it is CHR; over the slots the persona degraded
 * (left out, blurred, contradicted) it is the sharper CHR-degraded. Null when nothing was asked.
 */
export function clarificationHitRate(questions: readonly { retrieved: readonly string[] }[], slots: readonly string[]): number | null {
  if (questions.length === 0 || slots.length === 0) return null;
  const hit = new Set(questions.flatMap((q) => q.retrieved));
  return slots.filter((id) => hit.has(id)).length / slots.length;
}

/** VCI: verify steps per implement step; null when the agent never implemented. */
export function verifyCoverage(counts: { implement: number; verify: number }): number | null {
  return counts.implement > 0 ? counts.verify / counts.implement : null;
}

/**
 * IAS under the profile's rule: a trajectory with no reasoning text and no question gives an intent judge
 * nothing of the agent's own to read; the paper scores it 1, iwb leaves it unscored. A trajectory recorded
 * before the flag existed keeps the judge's score.
 */
export function intentScore(episode: Pick<EpisodeAnnotation, 'hasReasoning'> | undefined, judged: number | null, rules: ScoringRules): number | null {
  if (episode?.hasReasoning === false) return rules.iasWithoutReasoning;
  return judged;
}

/**
 * The slots as the profile grades them: under `erroredVerdict: 'fail'` a verdict the judge could not give,
 * in a case whose episode ran, is a fail (the paper's evaluator ERROR fails every slot). The slot list a
 * report shows keeps the real status, so the errored count stays apart.
 */
function gradedSlots(slots: readonly SlotRecord[], unevaluated: boolean, rules: ScoringRules): readonly SlotRecord[] {
  if (rules.erroredVerdict === 'left-out' || unevaluated) return slots;
  return slots.map((s) => (s.status === 'errored' ? { ...s, status: 'fail' as const } : s));
}

export function scoreCase(records: readonly SlotRecord[], rules: ScoringRules = PROFILES.iwb): CaseResult {
  const first = records[0]!;
  const episode = records.find((s) => s.episode)?.episode;
  // Never judged: the episode errored (or, none recorded, no slot was judged), as a paper log with no evaluation record.
  const unevaluated = episode ? episode.status === 'errored' : !records.some(judged);
  const zero = unevaluated && rules.unevaluatedCase === 'zero';
  const slots = gradedSlots(records, unevaluated, rules);
  const positives = slots.filter((s) => s.assertionType === 'POSITIVE');
  const negatives = slots.filter((s) => s.assertionType === 'NEGATIVE' && judged(s));
  const judgedAll = slots.filter(judged);
  const visual = slots.find((s) => s.visual)?.visual;
  const intent = episode?.intent && !episode.intent.error ? episode.intent : undefined;
  const step = stepFigures(episode, rules);
  const tcrRaw = weightedPassRate(slots, (s) => s.weight);
  // The paper's evaluator reports TCR over all slots to 4 places; its script falls back to it without a POSITIVE slot.
  const fallback = rules.tcrWithoutPositive === 'all-slots' && positives.length === 0 && tcrRaw !== null ? Math.round(tcrRaw * 1e4) / 1e4 : null;
  return {
    id: first.caseId,
    taskId: first.taskId,
    persona: first.persona,
    difficulty: first.difficulty,
    agent: episode?.agent ?? 'unknown',
    trial: first.trial ?? 0,
    tcr: zero ? 0 : (weightedPassRate(positives, (s) => s.weight) ?? fallback),
    tcrRaw: zero ? 0 : tcrRaw,
    tcrUniform: zero ? 0 : weightedPassRate(positives, () => 1),
    tcrCTech: zero ? 0 : weightedPassRate(positives, (s) => s.cTech),
    // A case hallucinated when a judged NEGATIVE slot failed; a judged case without one did not.
    hallucinated: judgedAll.length === 0 ? null : negatives.some((s) => s.status === 'fail'),
    sr: judgedAll.length > 0 ? judgedAll.every((s) => s.status === 'pass') : null,
    chr: episode ? clarificationHitRate(episode.questions, slots.map((s) => s.slotId)) : null,
    chrDegraded: episode?.degraded ? clarificationHitRate(episode.questions, episode.degraded) : null,
    chrLlm: intent && episode && episode.questions.length > 0 ? intent.hitSlots.filter((id) => slots.some((s) => s.slotId === id)).length / slots.length : null,
    ias: intentScore(episode, intent?.ias ?? null, rules),
    vci: step.verifySteps === null || step.implementSteps === null ? null : verifyCoverage({ implement: step.implementSteps, verify: step.verifySteps }),
    verifySteps: step.verifySteps,
    implementSteps: step.implementSteps,
    codeAlongsideSteps: step.codeAlongsideSteps,
    questionBeforeCode: step.questionBeforeCode,
    blind: step.blind,
    linesOfCode: episode ? episode.linesOfCode : null,
    locPaper: episode?.locPaper ?? null,
    steps: step.steps,
    questions: step.questions,
    submitted: step.submitted,
    episodeStatus: episode?.status ?? 'unknown',
    // A case's episode ran in this run if any of its tests saw it run rather than read it from disk.
    episodeCached: episode ? slots.every((s) => s.episode?.cached !== false) : null,
    injectionFlagged: slots.some((s) => s.injection === true),
    visualBug: visual ? visual.bug : null,
    visualFindings: visual?.findings ?? [],
    visualScores: visual?.scores ?? null,
    usage: caseUsage(slots, episode, visual),
    slots: records.map((s) => ({ id: s.slotId, status: s.status, weight: s.weight, cTech: s.cTech, assertionType: s.assertionType, ...(s.unmentioned ? { unmentioned: true } : {}) })),
  };
}

/** Every token the case cost, by role and model: its episode, its intent judgement, its visual score and its verdicts. */
function caseUsage(slots: readonly SlotRecord[], episode: EpisodeAnnotation | undefined, visual: VisualAnnotation | undefined): UsageEntry[] {
  const entries: UsageEntry[] = [...(episode?.usage ?? [])];
  if (visual?.usage) entries.push({ role: 'judge', ...visual.usage });
  if (episode?.intent) entries.push({ role: 'judge', model: episode.intent.model, ...episode.intent.tokens });
  for (const s of slots) if (s.judgeUsage) entries.push(s.judgeUsage);
  const merged = new Map<string, UsageEntry>();
  for (const e of entries) {
    const key = `${e.role}\0${e.model}`;
    const m = merged.get(key) ?? { role: e.role, model: e.model, prompt: 0, completion: 0 };
    merged.set(key, { ...m, ...addUsage(m, e) });
  }
  // A role whose provider gave no usage stays, with its tokens unknown: leaving it out would read as zero.
  return [...merged.values()].filter((e) => e.prompt + e.completion > 0 || e.unknown).sort((a, b) => a.role.localeCompare(b.role) || a.model.localeCompare(b.model));
}

export const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
