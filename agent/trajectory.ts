import type { UserTurn } from '../personas/types.js';
import type { ActionType, StepUsage } from './actions.js';

/** agent-failed: the agent's own failure (crash, silence, refusal, cut-off, over budget) ended it; its site is judged. */
export type EpisodeStatus = 'submitted' | 'step-cap' | 'agent-failed' | 'errored';

/** One step as recorded: what was decided, what came back. File contents are kept in the workspace, not here. */
export interface TrajectoryStep {
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
  files: string[];
  tokens: StepUsage;
  copilotTokens?: StepUsage;
}
