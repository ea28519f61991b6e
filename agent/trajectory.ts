import { z } from 'zod';
import type { UserTurn } from '../personas/types.js';
import type { ActionType, StepUsage } from './actions.js';

import type { EpisodeStatus } from '../protocol/enums.js';
import type { ScriptCounts } from '../protocol/annotations.js';

export type { EpisodeStatus } from '../protocol/enums.js';

const UsageSchema = z.object({ promptTokens: z.number().int().min(0), completionTokens: z.number().int().min(0), unknown: z.boolean().optional() });

/** One copilot turn of a verify audit: what it thought, did (or decided), what came of it, the frame it saw. */
export const AuditTurnSchema = z.object({
  thought: z.string(),
  action: z.string(),
  outcome: z.string(),
  /** The labelled screenshot the copilot saw, relative to the episode folder. */
  frame: z.string().optional(),
});

/** A verify step's audit as the trajectory keeps it (agent/audit.ts). */
export const AuditRecordSchema = z.object({
  criteria: z.string(),
  model: z.string(),
  passed: z.boolean(),
  /** True when the audit could not run to a verdict (page would not open, copilot replies never matched): counted as failed, as the paper does. */
  error: z.boolean(),
  report: z.string(),
  turns: z.array(AuditTurnSchema),
  failedInARow: z.number().int().min(0),
  failureLimit: z.number().int().min(1),
  usage: UsageSchema,
});
export type AuditRecord = z.infer<typeof AuditRecordSchema>;

/** Step fields the paper protocol and verify audits added; zod-checked where a trajectory is read back. */
export const StepExtrasSchema = z.object({
  /** The model's own reasoning (`<think>` blocks of the paper protocol). */
  reasoning: z.string().optional(),
  /** Shell commands the agent asked for; recorded, never run (the harness installs and starts sites itself). */
  shell: z.array(z.string()).optional(),
  /** Files a verify or submit reply wrote before it acted (the paper protocol writes them). */
  written: z.array(z.string()).optional(),
  /** The interactive audit of a verify step with criteria. */
  audit: AuditRecordSchema.optional(),
});
export type StepExtras = z.infer<typeof StepExtrasSchema>;

/** The post-mortem of a verification deadlock (agent/deadlock.ts), in the paper's four categories. */
export const DeadlockAnalysisSchema = z.object({
  summary: z.string().min(1).max(500),
  rootCause: z.string().min(1).max(2000),
  category: z.enum(['visual-stagnation', 'logic-paradox', 'code-error', 'hallucination']),
});
export type DeadlockAnalysis = z.infer<typeof DeadlockAnalysisSchema>;

/** On a verification deadlock: how many audits failed in a row, the last one's findings, and the post-mortem. */
export const DeadlockSchema = z.object({
  failedInARow: z.number().int().min(1),
  lastReport: z.string(),
  analysis: DeadlockAnalysisSchema.optional(),
  analysisError: z.string().optional(),
});

/** One step as recorded: what was decided, what came back. File contents are kept in the workspace, not here. */
export interface TrajectoryStep extends StepExtras {
  index: number;
  action: ActionType | 'invalid';
  args: Record<string, unknown>;
  observation: string;
  screenshot?: string;
  userTurn?: UserTurn;
  usage?: StepUsage;
  /** Tokens the visual copilot spent describing the screenshot this step's decision read, kept apart from the agent's own. */
  copilotUsage?: StepUsage;
  /** How the site came up for this step (implement and verify steps), and what failed on the way. */
  site?: { mode: string; problems: string[] };
  latencyMs: number;
  note?: string;
}

export interface Trajectory {
  schemaVersion: 1;
  caseId: string;
  persona: string;
  difficulty: string;
  agent: { name: string; config: Record<string, unknown> };
  caseHash: string;
  /** The run that made it (fixtures/global-setup.ts): an errored episode is served only within that run. */
  runId?: string;
  stepCap: number;
  status: EpisodeStatus;
  error?: string;
  startedAt: string;
  durationMs: number;
  steps: TrajectoryStep[];
  counts: { clarify: number; implement: number; verify: number; submit: number; invalid: number };
  /** True when a clarify came before the first implement (the paper's PCR counts these cases). */
  questionBeforeCode: boolean;
  linesOfCode: number;
  /** The paper's LOC (agent/workspace.ts linesOfCodePaper); absent in run folders written before it. */
  locPaper?: number;
  /** agent/step-tally.ts codeAlongside; absent in run folders written before it. */
  codeAlongside?: number;
  /** agent/step-tally.ts script: the steps as the paper's script counts them; absent in run folders written before it. */
  scriptCounts?: ScriptCounts;
  files: string[];
  tokens: StepUsage;
  /** The isolation the episode's untrusted processes ran in (sandbox/policy.ts Isolation). */
  sandbox?: string;
  /** The agent reported its own token counts (a `command:` agent): bounded per step, but not measured. */
  tokensSelfReported?: boolean;
  copilotTokens?: StepUsage;
  deadlock?: z.infer<typeof DeadlockSchema>;
}
