import { z } from 'zod';
import { AssertionTypeSchema, DifficultySchema, EpisodeStatusSchema, PersonaSchema, RoleSchema } from './enums.js';
import { JudgePhasesSchema, TokenPairSchema, VerdictSchema } from './verdict.js';

/**
 * What a slot test tells the reporter, carried in test annotations because annotations (unlike
 * `project.use`) survive blob reports and `merge-reports`. The reporter validates them when it reads
 * them back, so a report is never built from a half-understood test.
 */
export const ANNOTATION = {
  // A leading underscore keeps these JSON records out of Playwright's HTML report, which lists every other
  // annotation; the reader gets the readable rows judge/slot-sheet.ts writes instead.
  slot: '_iwb.slot',
  verdict: '_iwb.verdict',
  episode: '_iwb.episode',
  visual: '_iwb.visual',
  judging: '_iwb.judging',
  /** What the run was: its profile, dataset and judge, so the report (and merge-reports, in another process) scores it as it ran. */
  run: '_iwb.run',
  /** For the reader of the HTML report only: how many requests off the site the judged page made and had refused. */
  blockedRequests: 'iwb.blocked-requests',
} as const;

export const SlotAnnotationSchema = z.object({
  caseId: z.string(),
  taskId: z.string(),
  persona: PersonaSchema,
  difficulty: DifficultySchema,
  slotId: z.string(),
  targetComponent: z.string(),
  assertionType: AssertionTypeSchema,
  weight: z.number(),
  cTech: z.number(),
  /** Breakdown keys (optional: older blobs lack them): the task's split and primary category, the slot's WebGen-Bench test category. */
  split: z.enum(['dev', 'holdout']).optional(),
  category: z.string().optional(),
  testCategory: z.string().optional(),
});
export type SlotAnnotation = z.infer<typeof SlotAnnotationSchema>;

/**
 * The run a slot test belongs to, written by the fixtures from the runner's frozen settings: the reporter scores
 * under this profile and names this dataset, whatever the environment of the process that reports says
 * (`merge-reports` runs later, elsewhere), and refuses a report whose tests disagree.
 */
export const RunAnnotationSchema = z.object({
  profile: z.string().min(1),
  dataset: z.string().min(1),
  /** The judge's identity: its session, its step cap and its model (none: probes only). */
  judge: z.object({ mode: z.string().min(1), stepCap: z.number().int().positive().nullable(), model: z.string().nullable() }),
});
export type RunAnnotation = z.infer<typeof RunAnnotationSchema>;

/** A verdict as the slot test reports it: the verdict without its steps and timing (those go in attachments). */
export const VerdictAnnotationSchema = VerdictSchema.omit({ steps: true, durationMs: true, phases: true });
export type VerdictAnnotation = z.infer<typeof VerdictAnnotationSchema>;

/** Tokens one role spent with one model; the reporter prices them, so a report can be re-priced. */
export const UsageEntrySchema = z.object({
  role: RoleSchema,
  model: z.string(),
  prompt: z.number(),
  completion: z.number(),
  /** Some call's provider gave no usage object: tokens and cost of this role are unknown. */
  unknown: z.boolean().optional(),
});
export type UsageEntry = z.infer<typeof UsageEntrySchema>;

/** The judge model's reading of a whole trajectory: intent alignment (1-5) and which slots the questions hit. */
export const IntentAnnotationSchema = z.object({
  ias: z.number().min(1).max(5).nullable(),
  /** The slots the judge model says some question hit (the paper's CHR judgement). */
  hitSlots: z.array(z.string()),
  model: z.string(),
  tokens: TokenPairSchema,
  error: z.string().optional(),
});
export type IntentAnnotation = z.infer<typeof IntentAnnotationSchema>;

/**
 * A trajectory counted as the paper's `result_analyze.py` counts its logs (agent/step-tally.ts): the
 * `paper` profile's reading of the steps. Absent in run folders and blobs written before it.
 */
export const ScriptCountsSchema = z.object({
  replies: z.number(),
  /** Replies credited as a question (one with a finish is a submit). */
  questions: z.number(),
  /** Replies holding code, whatever else they hold. */
  codeSteps: z.number(),
  /** Replies credited as a verify (no finish, no question). */
  verifies: z.number(),
  /** Some reply held a finish. */
  finished: z.boolean(),
  /** Replies with none of the four paths. */
  formatErrors: z.number(),
  /** Replies holding code and a credited path: counted twice among the code steps of VCI. */
  codeAlongside: z.number(),
  /** Some reply held a question with no code before it or in it (PCR). */
  askedBeforeCode: z.boolean(),
});
export type ScriptCounts = z.infer<typeof ScriptCountsSchema>;

export const EpisodeAnnotationSchema = z.object({
  agent: z.string(),
  status: EpisodeStatusSchema,
  cached: z.boolean(),
  steps: z.number(),
  stepCap: z.number(),
  counts: z.object({ clarify: z.number(), implement: z.number(), verify: z.number(), submit: z.number(), invalid: z.number() }),
  questionBeforeCode: z.boolean(),
  linesOfCode: z.number(),
  /** The paper's LOC: every line of every final file but node_modules, dist, .next and package-lock.json. Absent in older blobs. */
  locPaper: z.number().optional(),
  /** Steps that wrote files alongside another action (agent/step-tally.ts). Absent in older blobs. */
  codeAlongside: z.number().optional(),
  scriptCounts: ScriptCountsSchema.optional(),
  /** The trajectory holds reasoning text or a question (protocol/build.ts hasReasoningText); absent in older blobs. */
  hasReasoning: z.boolean().optional(),
  tokens: z.object({ promptTokens: z.number(), completionTokens: z.number() }),
  durationMs: z.number(),
  error: z.string().optional(),
  /** Per clarify question, the slots the simulated user retrieved for it (CHR's evidence). */
  questions: z.array(z.object({ retrieved: z.array(z.string()) })).default([]),
  /** Slots the persona left out, blurred or contradicted; null when the dataset does not say. */
  degraded: z.array(z.string()).nullable().default(null),
  /** Which simulated user answered (IWB_USER), and where the degradation record came from. */
  user: z.enum(['contained', 'paper']).optional(),
  degradationSource: z.string().optional(),
  usage: z.array(UsageEntrySchema).default([]),
  intent: IntentAnnotationSchema.optional(),
  /** Model calls of the episode that failed in a way that changes what is measured (reporters/role-errors.ts). */
  roleErrors: z.array(z.object({ role: z.enum(['user', 'judge', 'agent', 'copilot']), message: z.string() })).default([]),
  /** The episode's folder (trajectory.json, shots/, final.png) on the machine that ran it, for the case viewer. */
  runFolder: z.string().optional(),
  /** How the episode's untrusted processes were isolated (bwrap, user, none, refused). */
  sandbox: z.string().optional(),
});
export type EpisodeAnnotation = z.infer<typeof EpisodeAnnotationSchema>;

/**
 * The crash rule's check of the submitted site on load (judge/crash-check.ts), written to crash.json and
 * carried to the reporter with the visual check, so a case page can say why every slot failed.
 */
export const CrashFindingSchema = z.object({
  crashed: z.boolean(),
  /** The first error, or "empty body", or why the page did not load; absent when not crashed. */
  reason: z.string().optional(),
  /** Every error seen while loading, first ten, for the case viewer and a reader who doubts the rule. */
  errors: z.array(z.string()),
});
export type CrashFinding = z.infer<typeof CrashFindingSchema>;

/** The deterministic visual-bug check of the case's final page (and the judge model's 1-5 scores, if any). */
export const VisualAnnotationSchema = z.object({
  bug: z.boolean(),
  findings: z.array(z.string()),
  /** The crash rule's finding, under a profile that applies it (absent otherwise and in older blobs). */
  crash: CrashFindingSchema.optional(),
  scores: z.object({ layout: z.number(), creativeAlignment: z.number(), overall: z.number() }).optional(),
  /** Tokens the judge model spent scoring the page. */
  usage: z.object({ model: z.string(), prompt: z.number(), completion: z.number(), unknown: z.boolean().optional() }).optional(),
});
export type VisualAnnotation = z.infer<typeof VisualAnnotationSchema>;

/**
 * Where a slot's judging ran and how long it took: a case's first slot test judges every slot of the case
 * (fixtures/judge-case.ts), so a slot test's own duration is not its judging time. `by` is the slot whose
 * test judged it; `ms` the harness time its judging took there (fresh page, judge, screenshots, record), `phases` where the
 * judge session's part of it went (absent for a verdict read from the verdict cache or charged to another slot).
 */
export const JudgingAnnotationSchema = z.object({ by: z.string(), ms: z.number(), phases: JudgePhasesSchema.optional() });
export type JudgingAnnotation = z.infer<typeof JudgingAnnotationSchema>;
