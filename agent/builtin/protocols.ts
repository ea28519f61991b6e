import type { Browser } from '@playwright/test';
import type { ChatResult, ToolSpec } from '../../llm/types.js';
import type { Observation } from '../actions.js';
import type { Decision } from '../types.js';
import { parseArtifactReply } from './artifact-parser.js';
import { viewObservation, type ObservationView } from './observation-text.js';
import { parsePaperReply } from './paper-protocol.js';
import { paperView } from './paper-view.js';
import { actionFromToolCalls, AGENT_TOOLS } from './tool-calls.js';

/**
 * The built-in agent's protocols, each one strategy: its prompt, how it shows an observation, what it keeps
 * of earlier screenshots, and how it reads a reply. The session (llm-session.ts) and the adapter
 * (adapters/openai.ts) ask the protocol instead of branching on its name.
 */

export const PROTOCOL_NAMES = ['tools', 'artifact', 'paper'] as const;
/** `paper`: the paper's bolt protocol, with its own system prompt (it states no step count). */
export type Protocol = (typeof PROTOCOL_NAMES)[number];

export interface ProtocolReading {
  decision: Decision;
  /** What the model hears with its next observation (the artifact protocol's ignored shell actions). */
  remarks?: string[];
}

export interface ProtocolStrategy {
  /** How `IWB_AGENT` names the agent that speaks it. */
  agentName: string;
  /** The system prompt's files in agent/builtin/prompts/, joined by a blank line. */
  promptFiles: readonly string[];
  view(o: Observation, browser: Browser | undefined): ObservationView | Promise<ObservationView>;
  /** Whether a configured copilot describes each screenshot to a text-only agent. */
  copilotDescribes: boolean;
  /** Screenshots the conversation keeps, the newest included. */
  imagesKept: number;
  tools?: ToolSpec[];
  /** Per-reply token limit the protocol asks for (none: the role's). */
  maxTokens?: number;
  /** The reply as a decision; `instruction` is the case's request as the agent got it. */
  read(result: ChatResult, cutOff: boolean, instruction: string): ProtocolReading;
}

const ARTIFACT_VIEW = (o: Observation) => viewObservation(o);

export const PROTOCOLS: Readonly<Record<Protocol, ProtocolStrategy>> = {
  tools: {
    agentName: 'openai',
    promptFiles: ['system.md', 'tools.md'],
    view: ARTIFACT_VIEW,
    copilotDescribes: true,
    imagesKept: 1,
    tools: AGENT_TOOLS,
    read(result, cutOff) {
      const parsed = actionFromToolCalls(result.toolCalls);
      return { decision: 'invalid' in parsed && cutOff ? { invalid: `${parsed.invalid} (your reply was cut off at the token limit)` } : parsed };
    },
  },
  artifact: {
    agentName: 'openai:artifact',
    promptFiles: ['system.md', 'artifact.md'],
    view: ARTIFACT_VIEW,
    copilotDescribes: true,
    imagesKept: 1,
    read(result, cutOff) {
      const read = parseArtifactReply(result.content ?? '', cutOff);
      return 'action' in read ? { decision: { action: read.action }, remarks: read.remarks } : { decision: read };
    },
  },
  paper: {
    agentName: 'openai:paper',
    promptFiles: ['paper.md'],
    view: paperView,
    // The builder sees the audit's frame itself; the copilot's work is the audit.
    copilotDescribes: false,
    // The paper's harness keeps the last three pictures in all.
    imagesKept: 3,
    // The paper's harness asks its builder for up to 16000 tokens per reply.
    maxTokens: 16_000,
    read(result, cutOff, instruction) {
      const read = parsePaperReply(result.content ?? '', cutOff);
      const decision: Decision = { ...read.decision, ...(read.writes.length ? { writes: read.writes } : {}), ...(read.shell.length ? { shell: read.shell } : {}), ...(read.reasoning ? { reasoning: read.reasoning.slice(0, 8000) } : {}), paths: read.paths };
      // The paper's harness audits a verify without criteria against the request itself.
      if ('action' in decision && decision.action.type === 'verify' && !decision.action.criteria) {
        decision.action = { ...decision.action, criteria: `Check that the page does what the client asked for:\n${instruction}` };
      }
      return { decision };
    },
  },
};
