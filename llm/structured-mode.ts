import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { z } from 'zod';
import { QUIRKS } from './quirks.js';
import type { JsonMode } from '../config/roles.js';

/**
 * How a structured reply is asked for. `json_schema` sends the schema as response_format (OpenAI, vLLM,
 * Ollama); `json_object` sends response_format json_object and states the schema in the prompt (DeepSeek,
 * which answers json_schema with HTTP 400 "This response_format type is unavailable now"); `prompt` sends
 * no response_format at all and states the schema in the prompt (servers that reject both).
 *
 * `auto` starts with json_schema and steps down once per endpoint and model on a 400/422 that names
 * response_format: the mode found is remembered for the rest of the process, so a run pays for one
 * fallback, not one per call.
 */
export type ConcreteMode = Exclude<JsonMode, 'auto'>;

export const FALLBACK_ORDER: readonly ConcreteMode[] = ['json_schema', 'json_object', 'prompt'];

const learned = new Map<string, ConcreteMode>();

export function endpointKey(baseURL: string | undefined, model: string): string {
  return `${baseURL ?? 'https://api.openai.com/v1'}\0${model}`;
}

/** The mode to try first for this endpoint and model. */
export function currentMode(configured: JsonMode, key: string): ConcreteMode {
  if (configured !== 'auto') return configured;
  return learned.get(key) ?? 'json_schema';
}

/** The next mode after `mode` failed with a response_format complaint, or undefined when none is left. */
export function stepDown(configured: JsonMode, key: string, mode: ConcreteMode): ConcreteMode | undefined {
  if (configured !== 'auto') return undefined;
  const next = FALLBACK_ORDER[FALLBACK_ORDER.indexOf(mode) + 1];
  if (next) learned.set(key, next);
  return next;
}

/** Records a mode that worked (preflight finds it before the run; the run then starts there). */
export function remember(key: string, mode: ConcreteMode): void {
  learned.set(key, mode);
}

export function learnedMode(key: string): ConcreteMode | undefined {
  return learned.get(key);
}

/** Forget what was learned; for tests that reuse one fake endpoint with different quirks. */
export function forgetModes(): void {
  learned.clear();
}

/** A 400/422 whose message is about the response format, not about the conversation. */
export function isFormatRefusal(status: number | undefined, message: string): boolean {
  const { refusal } = QUIRKS.refuseJsonSchema;
  return status !== undefined && (refusal.status as readonly number[]).includes(status) && refusal.message.test(message);
}

/** The instruction that carries the schema when the endpoint does not take it as response_format. */
export function schemaInstruction(name: string, schema: unknown): string {
  return (
    `Reply with one JSON object only, no prose and no code fence. It must match this JSON Schema ("${name}"):\n` +
    JSON.stringify(schema)
  );
}

/** In json_object and prompt modes the schema travels in the system prompt. */
export function withSchema(convo: ChatCompletionMessageParam[], mode: ConcreteMode, name: string, schema: unknown): ChatCompletionMessageParam[] {
  if (mode === 'json_schema') return convo;
  const note = schemaInstruction(name, schema);
  const [first, ...rest] = convo;
  // Appended to the first system message: some chat templates (llama.cpp, Qwen) reject a system message later on.
  if (first?.role === 'system' && typeof first.content === 'string') return [{ role: 'system', content: `${first.content}\n\n${note}` }, ...rest];
  return [{ role: 'system', content: note }, ...convo];
}

export function validate<S extends z.ZodType>(
  schema: S,
  content: string | null,
  finishReason: string | null,
): { ok: true; value: z.output<S> } | { ok: false; issues: string } {
  if (content === null || content.trim() === '') return { ok: false, issues: 'the reply was empty' };
  let json: unknown;
  try {
    json = JSON.parse(content);
  } catch (e) {
    const cut = finishReason === 'length' ? ' (the reply was cut off at the token limit)' : '';
    return { ok: false, issues: `the reply is not valid JSON${cut}: ${(e as Error).message}` };
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, issues: z.prettifyError(parsed.error).replace(/\n/g, '; ') };
}
