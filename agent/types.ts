import type { Browser } from '@playwright/test';
import type { Case, Difficulty } from '../slots/schema.js';
import type { ModelClient } from '../llm/client.js';
import type { Action, FileWrite, Observation, StepUsage } from './actions.js';

/**
 * One decision: an action, or a reply that could not be read as one (`invalid` says why). An invalid
 * reply costs the step and comes back to the agent as an error observation, as a malformed tool call
 * would in any real harness.
 */
export type Decision = ({ action: Action } | { invalid: string }) & {
  usage?: StepUsage;
  /** Tokens of the visual copilot (a different model and role) spent on this step. */
  copilotUsage?: StepUsage;
  /** Model-side reasoning or raw reply, kept in the trajectory for debugging. */
  note?: string;
  /** The usage is the agent's own claim (a `command:` agent's report), not counted by the harness. */
  usageSelfReported?: boolean;
  /** The model's reasoning blocks, kept apart from the raw reply. */
  reasoning?: string;
  /** Shell commands the reply asked for: recorded, never run. */
  shell?: string[];
  /**
   * Files to write before a verify or submit runs: in the paper's protocol a reply that verifies or
   * finishes may carry an artifact too, and its files are written. Ignored for other actions.
   */
  writes?: FileWrite[];
  /** The paths the reply's text touches as the paper's script reads it (paper protocol only; agent/step-tally.ts). */
  paths?: ReplyPaths;
};

/** The paths a reply touched: in the paper's protocol read from its text (paper-paths.ts), else from the decision. */
export interface ReplyPaths {
  ask: boolean;
  code: boolean;
  verify: boolean;
  finish: boolean;
}

/** An agent's session on one case. `next` gets every observation, starting with the instruction. */
export interface AgentSession {
  next(observation: Observation): Promise<Decision>;
  close?(): Promise<void>;
  /** What the agent wrote to stderr (command agents), kept as agent-stderr.log in the case folder. */
  stderr?(): string;
}

/**
 * What an adapter may see of a case: what the agent's user would tell it, never the gold instruction, the
 * slots or the degradation record. The `reference` baseline gets its reference site through its own
 * dependency (AdapterDeps.referenceSite), not through the case.
 */
export interface PublicCase {
  id: string;
  /** The persona's instruction: all the agent is told at the start. */
  instruction: string;
  difficulty: Difficulty;
  stepCap: number;
}

export function publicCase(c: Case, stepCap: number): PublicCase {
  return { id: c.id, instruction: c.instruction, difficulty: c.difficulty, stepCap };
}

export interface AgentContext {
  case: PublicCase;
  browser: Browser;
  /** The episode's workspace and screenshot folders, which a sandboxed agent may read. */
  workspace?: string;
  shotsDir?: string;
}

/**
 * The agent contract, inspect_ai-Solver-shaped: a name, a configuration that keys the episode cache,
 * and a function that opens a session. Adding an adapter is one file in agent/adapters/.
 */
export interface Agent {
  name: string;
  config: Record<string, string | number | boolean | null>;
  start(ctx: AgentContext): Promise<AgentSession>;
  /**
   * The model that audits verify steps carrying criteria (the copilot, else the agent's own model, as
   * the paper's shipped config does). None: every verify is a plain screenshot. Its name belongs in
   * `config`, since it changes what an episode does.
   */
  auditor?: ModelClient;
}

/** Thrown by an adapter when the agent itself is broken (crashed, silent): the episode ends as agent-failed. */
export class AgentCrash extends Error {
  override name = 'AgentCrash';
  constructor(message: string, readonly stderr?: string) {
    super(message);
  }
}

/**
 * The sandbox could not start the agent's program at all (the shell found no interpreter, a file it
 * needs is outside the mounts): the harness's failure, not the agent's, so the episode is errored and
 * never scored as the agent's 0%.
 */
export class AgentUnstartable extends Error {
  override name = 'AgentUnstartable';
  constructor(message: string, readonly stderr?: string) {
    super(message);
  }
}
