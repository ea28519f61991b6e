import type { FakeRequestBody } from './fake-request.js';

/**
 * The documented habits of real OpenAI-compatible providers, for the fake server to imitate. Each is
 * named after the provider it comes from, so a test says which endpoint it stands for. Kept apart from
 * fake-server.ts: the server asks `refusal()` before answering and `shape()` on every completion body.
 */
export interface Quirks {
  /** DeepSeek: response_format json_schema gives HTTP 400 "This response_format type is unavailable now". */
  refuseJsonSchema?: boolean;
  /** A server that takes no response_format at all (some llama.cpp builds behind proxies): HTTP 400. */
  refuseResponseFormat?: boolean;
  /** A text-only model shown an image: vLLM answers 400, llama.cpp's server 500 "image input is not supported". */
  refuseImages?: 'vllm' | 'llama.cpp';
  /** A server without tool calling (llama.cpp without --jinja): HTTP 400 on a request with tools. */
  refuseTools?: boolean;
  /** Many models (Qwen, Llama, Kimi) wrap JSON in a ```json fence. */
  fenceJson?: boolean;
  /** Qwen3 and R1 distills behind vLLM or Ollama: the content opens with a <think>...</think> block. */
  thinkBlock?: string;
  /** DeepSeek R1 and vLLM's reasoning parsers: the reasoning arrives in message.reasoning_content. */
  reasoningContent?: string;
  /** Ollama and llama.cpp (some versions) answer without a usage object. */
  noUsage?: boolean;
  /** Older Ollama and some proxies: tool-call arguments as a JSON object instead of a string. */
  toolArgsAsObject?: boolean;
  /** A slow local server: every reply waits this long. */
  delayMs?: number;
  /** Models the endpoint serves (GET /v1/models); an unknown model in a request gets 404. */
  models?: string[];
  /** Every request needs `Authorization: Bearer <apiKey>`, else 401. */
  apiKey?: string;
}

export interface Refusal {
  status: number;
  message: string;
}

const hasImage = (body: FakeRequestBody): boolean =>
  body.messages.some((m) => Array.isArray(m.content) && m.content.some((p) => p.type === 'image_url'));

/** The error a provider with these quirks gives for this request, if it gives one. */
export function refusal(q: Quirks, body: FakeRequestBody, authorization: string | undefined): Refusal | undefined {
  if (q.apiKey !== undefined && authorization !== `Bearer ${q.apiKey}`) return { status: 401, message: 'Incorrect API key provided' };
  if (q.models && body.model !== undefined && !q.models.includes(body.model)) {
    return { status: 404, message: `The model \`${body.model}\` does not exist` };
  }
  const format = body.response_format?.type;
  if (q.refuseResponseFormat && format !== undefined) return { status: 400, message: `response_format is not supported by this server` };
  if (q.refuseJsonSchema && format === 'json_schema') return { status: 400, message: 'This response_format type is unavailable now' };
  if (q.refuseTools && Array.isArray(body.tools) && body.tools.length > 0) return { status: 400, message: 'tools param requires --jinja flag' };
  if (q.refuseImages && hasImage(body)) {
    return q.refuseImages === 'vllm'
      ? { status: 400, message: 'The model is not a multimodal model: image_url content is not supported' }
      : { status: 500, message: 'image input is not supported - hint: if this is unexpected, you may need to provide the mmproj' };
  }
  return undefined;
}

interface Message {
  content?: unknown;
  tool_calls?: Array<{ function: { arguments: unknown } }>;
  [key: string]: unknown;
}

/** Rewrites a completion body the way the provider would have sent it. */
export function shape(q: Quirks, body: Record<string, unknown>): Record<string, unknown> {
  const choices = body.choices as Array<{ message: Message }>;
  for (const { message } of choices) {
    if (typeof message.content === 'string' && message.content !== '') {
      if (q.fenceJson && /^\s*[{[]/.test(message.content)) message.content = `Here is the JSON:\n\`\`\`json\n${message.content}\n\`\`\`\nLet me know if you need more.`;
      if (q.thinkBlock !== undefined) message.content = `<think>\n${q.thinkBlock}\n</think>\n\n${message.content}`;
    }
    if (q.reasoningContent !== undefined) message.reasoning_content = q.reasoningContent;
    if (q.toolArgsAsObject) {
      for (const call of message.tool_calls ?? []) {
        const args = call.function.arguments;
        if (typeof args === 'string') call.function.arguments = JSON.parse(args) as unknown;
      }
    }
  }
  if (q.noUsage) delete body.usage;
  return body;
}

/**
 * The answers a capable model gives to the preflight's probes (llm/preflight.ts): a scripted handler calls
 * this first, so a Playwright run's preflight passes and the rest of the script is left to the test.
 */
export function preflightAnswer(body: FakeRequestBody): { kind: 'json'; value: unknown } | { kind: 'text'; text: string } | { kind: 'tools'; calls: Array<{ name: string; arguments: unknown }> } | undefined {
  const system = body.messages.find((m) => m.role === 'system');
  const systemText = typeof system?.content === 'string' ? system.content : '';
  if (body.response_format?.json_schema?.name === 'health_check' || systemText.includes('("health_check")')) return { kind: 'json', value: { ok: true, colour: 'red' } };
  if (body.tools?.some((t) => t.function.name === 'ping')) return { kind: 'tools', calls: [{ name: 'ping', arguments: {} }] };
  const last = body.messages[body.messages.length - 1];
  const text = typeof last?.content === 'string' ? last.content : (last?.content ?? []).map((p) => p.text ?? '').join(' ');
  if (body.messages.length === 1 && /Reply with the single word OK|What colour is this image\? One word/.test(text)) return { kind: 'text', text: 'OK' };
  return undefined;
}
