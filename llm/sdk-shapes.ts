import type {
  ChatCompletion,
  ChatCompletionMessageParam,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions';
import { QUIRKS } from './quirks.js';
import { splitReasoning } from './tolerant.js';
import type { ChatMessage, ToolCall, ToolChoice } from './types.js';
import type { TokenUsage } from './usage.js';

/**
 * This project's chat shapes to the SDK's and back: messages and tool choice out; reasoning, emptiness and
 * token counts read off a completion, whichever server's dialect it came in.
 */

export function toSdkMessage(m: ChatMessage): ChatCompletionMessageParam {
  switch (m.role) {
    case 'system':
      return { role: 'system', content: m.content };
    case 'user':
      if (typeof m.content === 'string') return { role: 'user', content: m.content };
      return {
        role: 'user',
        content: m.content.map((p) =>
          p.type === 'text'
            ? { type: 'text' as const, text: p.text }
            : { type: 'image_url' as const, image_url: { url: p.url, ...(p.detail ? { detail: p.detail } : {}) } },
        ),
      };
    case 'assistant':
      return {
        role: 'assistant',
        content: m.content,
        ...(m.toolCalls?.length
          ? {
              tool_calls: m.toolCalls.map((t) => ({
                id: t.id,
                type: 'function' as const,
                function: { name: t.name, arguments: t.arguments },
              })),
            }
          : {}),
      };
    case 'tool':
      return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
  }
}

export function toSdkToolChoice(c: ToolChoice): ChatCompletionToolChoiceOption {
  return typeof c === 'string' ? c : { type: 'function', function: { name: c.name } };
}

/** The reasoning a server returns beside the content, in the first field of the reasoningContent quirk it fills. */
export function reasoningField(message: unknown): string | undefined {
  const m = message as Record<string, unknown>;
  const r = QUIRKS.reasoningContent.fields.map((f) => m[f]).find((v) => v !== undefined && v !== null);
  return typeof r === 'string' && r.trim() !== '' ? r : undefined;
}

/** The function calls of a reply; arguments sent as an object (the toolArgsAsObject quirk) become JSON text. */
export function toolCallsOf(message: ChatCompletion['choices'][number]['message']): ToolCall[] {
  const calls: ToolCall[] = [];
  for (const t of message.tool_calls ?? []) {
    if (t.type !== 'function') continue;
    const args: unknown = t.function.arguments;
    calls.push({ id: t.id, name: t.function.name, arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}) });
  }
  return calls;
}

export function isEmptyReply(completion: ChatCompletion): boolean {
  const choice = completion.choices[0]!;
  const m = choice.message;
  if (choice.finish_reason === 'length' || m.refusal || m.tool_calls?.length) return false;
  return m.content == null || splitReasoning(m.content).text?.trim() === '';
}

export function usageOf(completion: ChatCompletion): TokenUsage {
  // No usage object is not zero tokens: the provider did not say (unknown is not zero).
  if (!completion.usage) return { prompt: 0, completion: 0, unknown: true };
  return { prompt: completion.usage.prompt_tokens ?? 0, completion: completion.usage.completion_tokens ?? 0 };
}
