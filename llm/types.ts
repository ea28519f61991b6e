import type { SchemaError } from './errors.js';
import type { TokenUsage } from './usage.js';

/**
 * The message shapes the rest of the harness speaks. They are ours, not the SDK's, so agents, judges and
 * the simulated user never import `openai` and the SDK can change under llm/ alone.
 */
export type ContentPart = { type: 'text'; text: string } | { type: 'image'; url: string; detail?: 'low' | 'high' | 'auto' };

export interface ToolCall {
  id: string;
  name: string;
  /** The raw JSON text the model produced: callers validate it, because models do produce bad JSON. */
  arguments: string;
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | ContentPart[] }
  | { role: 'assistant'; content: string | null; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string };

/** JSON Schema of a tool's arguments, as a plain object. */
export type JsonSchema = { [key: string]: unknown };

export interface ToolSpec {
  name: string;
  description: string;
  parameters: JsonSchema;
}

export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

export interface ChatOptions {
  tools?: ToolSpec[];
  toolChoice?: ToolChoice;
  maxTokens?: number;
  /** Overrides the role's temperature for one call. */
  temperature?: number;
}

export interface ChatResult {
  content: string | null;
  toolCalls: ToolCall[];
  finishReason: string;
  usage: TokenUsage;
  /** HTTP attempts this call took, including the successful one. */
  attempts: number;
  latencyMs: number;
  /** A reasoning model's thinking (a leading think block or the server's reasoning_content), set aside from `content`. */
  reasoning?: string;
}

export type StructuredResult<T> =
  | { ok: true; value: T; usage: TokenUsage; attempts: number; raw: string; mode: 'json_schema' | 'json_object' | 'prompt'; reasoning?: string }
  | { ok: false; error: SchemaError; usage: TokenUsage; attempts: number };
