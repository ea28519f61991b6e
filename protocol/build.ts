import { z } from 'zod';
import {
  ANNOTATION,
  EpisodeAnnotationSchema,
  JudgingAnnotationSchema,
  RunAnnotationSchema,
  SlotAnnotationSchema,
  VerdictAnnotationSchema,
  VisualAnnotationSchema,
  type EpisodeAnnotation,
  type IntentAnnotation,
  type JudgingAnnotation,
  type RunAnnotation,
  type SlotAnnotation,
  type UsageEntry,
  type VerdictAnnotation,
  type VisualAnnotation,
} from './annotations.js';
import type { EpisodeStatus } from './enums.js';
import type { Verdict } from './verdict.js';

/** A Playwright test annotation as this project writes it: always with a description. */
export const AnnotationRecordSchema = z.object({ type: z.string(), description: z.string() });
export type Annotation = z.infer<typeof AnnotationRecordSchema>;

/**
 * The one place annotations are written. Each builder validates its payload with the same schema the
 * reporter reads it back with, so a writer that drifts from the contract fails where it writes, not in
 * a report built later from half-understood tests. Inputs are structural, so this folder imports nothing
 * from the pipeline above it.
 */
function annotate<S extends z.ZodType>(type: string, schema: S, payload: z.input<S>): Annotation {
  return { type, description: JSON.stringify(schema.parse(payload)) };
}

export function slotAnnotation(
  c: { id: string; taskId: string; persona: SlotAnnotation['persona']; difficulty: SlotAnnotation['difficulty']; split?: SlotAnnotation['split']; task?: { category: string } },
  slot: { id: string; targetComponent: string; assertionType: SlotAnnotation['assertionType']; weight: number; cTech: number; testCategory?: string },
): Annotation {
  const payload: SlotAnnotation = {
    caseId: c.id,
    taskId: c.taskId,
    persona: c.persona,
    difficulty: c.difficulty,
    slotId: slot.id,
    targetComponent: slot.targetComponent,
    assertionType: slot.assertionType,
    weight: slot.weight,
    cTech: slot.cTech,
    ...(c.split ? { split: c.split } : {}),
    ...(c.task ? { category: c.task.category } : {}),
    ...(slot.testCategory ? { testCategory: slot.testCategory } : {}),
  };
  return annotate(ANNOTATION.slot, SlotAnnotationSchema, payload);
}

export function runAnnotation(run: RunAnnotation): Annotation {
  return annotate(ANNOTATION.run, RunAnnotationSchema, run);
}

export function verdictAnnotation(v: Pick<Verdict, 'status' | 'judge' | 'evidence'> & Partial<Verdict>): Annotation {
  const payload: VerdictAnnotation = {
    status: v.status,
    judge: v.judge,
    evidence: v.evidence.slice(0, 2000),
    ...(v.injection ? { injection: true } : {}),
    ...(v.blockedRequests ? { blockedRequests: v.blockedRequests } : {}),
    ...(v.cached ? { cached: true } : {}),
    ...(v.unmentioned ? { unmentioned: true } : {}),
    ...(v.tokens ? { tokens: v.tokens } : {}),
    ...(v.model ? { model: v.model } : {}),
  };
  return annotate(ANNOTATION.verdict, VerdictAnnotationSchema, payload);
}

/** The parts of a trajectory an episode annotation reads (the trajectory type itself lives with the agent). */
export interface EpisodeRecord {
  status: EpisodeStatus;
  steps: ReadonlyArray<{ action: string; args?: Record<string, unknown>; reasoning?: string; userTurn?: { question: string; retrievedSlotIds: string[] } }>;
  stepCap: number;
  counts: EpisodeAnnotation['counts'];
  questionBeforeCode: boolean;
  linesOfCode: number;
  /** Every line of every final file but node_modules, dist, .next and package-lock.json (the paper's LOC); absent in older run folders. */
  locPaper?: number;
  /** Steps that wrote files alongside another action (agent/step-tally.ts); absent in older run folders. */
  codeAlongside?: number;
  /** agent/step-tally.ts script; absent in older run folders. */
  scriptCounts?: EpisodeAnnotation['scriptCounts'];
  tokens: EpisodeAnnotation['tokens'];
  durationMs: number;
  error?: string;
  /** The isolation its untrusted processes ran in. */
  sandbox?: string;
}

export function episodeAnnotation(
  t: EpisodeRecord,
  extra: { agent: string; cached: boolean; degraded: string[] | null; user?: 'contained' | 'paper'; degradationSource?: string; usage: UsageEntry[]; roleErrors?: EpisodeAnnotation['roleErrors']; intent?: IntentAnnotation; runFolder?: string },
): Annotation {
  const payload: EpisodeAnnotation = {
    agent: extra.agent,
    status: t.status,
    cached: extra.cached,
    steps: t.steps.length,
    stepCap: t.stepCap,
    counts: t.counts,
    questionBeforeCode: t.questionBeforeCode,
    linesOfCode: t.linesOfCode,
    ...(t.locPaper !== undefined ? { locPaper: t.locPaper } : {}),
    ...(t.codeAlongside !== undefined ? { codeAlongside: t.codeAlongside } : {}),
    ...(t.scriptCounts !== undefined ? { scriptCounts: t.scriptCounts } : {}),
    hasReasoning: hasReasoningText(t.steps),
    tokens: t.tokens,
    durationMs: t.durationMs,
    ...(t.error ? { error: t.error.slice(0, 2000) } : {}),
    questions: t.steps.filter((s) => s.action === 'clarify' && s.userTurn).map((s) => ({ retrieved: s.userTurn!.retrievedSlotIds })),
    degraded: extra.degraded,
    ...(extra.user ? { user: extra.user } : {}),
    ...(extra.degradationSource ? { degradationSource: extra.degradationSource } : {}),
    usage: extra.usage,
    roleErrors: extra.roleErrors ?? [],
    ...(extra.intent ? { intent: extra.intent } : {}),
    ...(extra.runFolder ? { runFolder: extra.runFolder } : {}),
    ...(t.sandbox ? { sandbox: t.sandbox } : {}),
  };
  return annotate(ANNOTATION.episode, EpisodeAnnotationSchema, payload);
}

/**
 * Whether a trajectory holds text an intent judge could read the agent's intent from: a step's reasoning or
 * a question it asked. The paper's reader keeps a reply's `<think>` blocks, else its prose (questions
 * included); replies that are only code give it nothing, and the paper then scores IAS 1.
 */
export function hasReasoningText(steps: EpisodeRecord['steps']): boolean {
  const question = (s: EpisodeRecord['steps'][number]) => s.userTurn?.question ?? (typeof s.args?.question === 'string' ? s.args.question : '');
  return steps.some((s) => (s.reasoning ?? '').trim() !== '' || (s.action === 'clarify' && question(s).trim() !== ''));
}

export function visualAnnotation(v: VisualAnnotation): Annotation {
  return annotate(ANNOTATION.visual, VisualAnnotationSchema, { ...v, findings: v.findings.slice(0, 20) });
}

export function judgingAnnotation(j: JudgingAnnotation): Annotation {
  return annotate(ANNOTATION.judging, JudgingAnnotationSchema, j);
}
