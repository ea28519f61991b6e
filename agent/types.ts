import type { Browser } from '@playwright/test';
import type { Case } from '../slots/schema.js';
import type { Action, Observation, StepUsage } from './actions.js';

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
};

/** An agent's session on one case. `next` gets every observation, starting with the instruction. */
export interface AgentSession {
  next(observation: Observation): Promise<Decision>;
  close?(): Promise<void>;
}

/** What an adapter may see of a case. Only the `reference` baseline reads the task's reference site. */
export interface AgentContext {
  case: Case;
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
}

/** Thrown by an adapter when the agent itself is broken (crashed, silent): the episode ends as errored. */
export class AgentCrash extends Error {
  override name = 'AgentCrash';
  constructor(message: string, readonly stderr?: string) {
    super(message);
  }
}
