import type { QuirkName } from '../llm/quirks.js';
import type { FakeRequestBody } from './fake-request.js';

/**
 * The provider quirks of llm/quirks.ts, imitated under the same names, so a test says which habit of a real
 * endpoint it stands for and docs/providers.md lists nothing the fake cannot do. Kept apart from
 * fake-server.ts: the server asks `answerFirst()` before any scripted reply, waits `delayOf()`, and passes every
 * completion body through `shape()`. A count (`times`) means the first n chat requests after `quirks()` was set.
 */
export interface QuirkValues {
  refuseJsonSchema: boolean;
  refuseResponseFormat: boolean;
  /** Which server's refusal: vLLM answers 400, llama.cpp's server 500. */
  refuseImages: 'vllm' | 'llama.cpp';
  refuseTools: boolean;
  fenceJson: boolean;
  /** The reasoning to open every reply with. */
  thinkBlock: string;
  /** The reasoning to open every reply with, its opening tag left out. */
  thinkWithoutOpening: string;
  reasoningContent: string;
  noUsage: boolean;
  toolArgsAsObject: boolean;
  /** The header, when given, is sent as is: `{ 'retry-after': '1' }` or `{ 'retry-after-ms': '15' }`. */
  rateLimited: { times: number; headers?: Record<string, string> };
  overloaded: { times: number; status?: number };
  /** Every reply waits this many ms. */
  slowReply: number;
  malformedBody: number;
  noChoices: number;
  emptyReply: number;
}

/** Endpoint facts, not habits: what the preflight checks. */
interface Endpoint {
  /** Models the endpoint serves (GET /v1/models); an unknown model in a request gets 404. */
  models?: string[];
  /** Every request needs `Authorization: Bearer <apiKey>`, else 401. */
  apiKey?: string;
}

export type Quirks = { [K in QuirkName]?: QuirkValues[K] } & Endpoint;

/** An answer in place of the completion. */
export interface Refusal {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

interface Message {
  content?: unknown;
  tool_calls?: Array<{ function: { arguments: unknown } }>;
  [key: string]: unknown;
}

interface Completion {
  choices: Array<{ message: Message }>;
  usage?: unknown;
  [key: string]: unknown;
}

/** How the fake imitates one quirk; `nth` counts chat requests since the quirks were set, from 0. */
interface FakeQuirk<V> {
  refuse?: (v: V, body: FakeRequestBody, nth: number) => Refusal | undefined;
  delayMs?: (v: V) => number;
  shape?: (v: V, completion: Completion, nth: number) => void;
}

const error = (status: number, message: string, headers?: Record<string, string>): Refusal => ({
  status,
  body: JSON.stringify({ error: { message, type: 'invalid_request_error' } }),
  ...(headers ? { headers } : {}),
});

const hasImage = (body: FakeRequestBody): boolean =>
  body.messages.some((m) => Array.isArray(m.content) && m.content.some((p) => p.type === 'image_url'));

const contents = (c: Completion, edit: (text: string) => string): void => {
  for (const { message } of c.choices) if (typeof message.content === 'string' && message.content !== '') message.content = edit(message.content);
};

const FAKE: { [K in QuirkName]: FakeQuirk<QuirkValues[K]> } = {
  refuseJsonSchema: { refuse: (on, b) => (on && b.response_format?.type === 'json_schema' ? error(400, 'This response_format type is unavailable now') : undefined) },
  refuseResponseFormat: { refuse: (on, b) => (on && b.response_format !== undefined ? error(400, 'response_format is not supported by this server') : undefined) },
  refuseImages: {
    refuse: (server, b) => {
      if (!hasImage(b)) return undefined;
      return server === 'vllm'
        ? error(400, 'The model is not a multimodal model: image_url content is not supported')
        : error(500, 'image input is not supported - hint: if this is unexpected, you may need to provide the mmproj');
    },
  },
  refuseTools: { refuse: (on, b) => (on && Array.isArray(b.tools) && b.tools.length > 0 ? error(400, 'tools param requires --jinja flag') : undefined) },
  fenceJson: { shape: (on, c) => on && contents(c, (t) => (/^\s*[{[]/.test(t) ? `Here is the JSON:\n\`\`\`json\n${t}\n\`\`\`\nLet me know if you need more.` : t)) },
  thinkBlock: { shape: (thought, c) => contents(c, (t) => `<think>\n${thought}\n</think>\n\n${t}`) },
  thinkWithoutOpening: { shape: (thought, c) => contents(c, (t) => `${thought}\n</think>\n\n${t}`) },
  reasoningContent: { shape: (thought, c) => c.choices.forEach(({ message }) => (message.reasoning_content = thought)) },
  noUsage: { shape: (on, c) => on && delete c.usage },
  toolArgsAsObject: {
    shape: (on, c) => {
      for (const call of on ? c.choices.flatMap(({ message }) => message.tool_calls ?? []) : []) {
        const args = call.function.arguments;
        if (typeof args === 'string') call.function.arguments = JSON.parse(args) as unknown;
      }
    },
  },
  rateLimited: { refuse: (v, _b, nth) => (nth < v.times ? error(429, 'Rate limit reached for requests', v.headers) : undefined) },
  overloaded: { refuse: (v, _b, nth) => (nth < v.times ? error(v.status ?? 503, 'The server is overloaded, try again later') : undefined) },
  slowReply: { delayMs: (ms) => ms },
  malformedBody: { refuse: (times, _b, nth) => (nth < times ? { status: 200, body: '{"id": "chatcmpl-broken", "choices": [' } : undefined) },
  noChoices: { shape: (times, c, nth) => nth < times && (c.choices = []) },
  emptyReply: { shape: (times, c, nth) => nth < times && c.choices.forEach(({ message }) => (message.content = '')) },
};

/** The quirks the fake imitates: a test checks they are exactly the table's rows. */
export const FAKE_QUIRK_NAMES = Object.keys(FAKE) as QuirkName[];

/** Each quirk that is set, with its value, in the table's order. */
function active(q: Quirks): Array<{ quirk: FakeQuirk<never>; value: never }> {
  return FAKE_QUIRK_NAMES.filter((name) => q[name] !== undefined).map((name) => ({ quirk: FAKE[name] as FakeQuirk<never>, value: q[name] as never }));
}

/** The answer an endpoint with these quirks gives this request in place of a completion, if it gives one. */
export function answerFirst(q: Quirks, body: FakeRequestBody, authorization: string | undefined, nth: number): Refusal | undefined {
  if (q.apiKey !== undefined && authorization !== `Bearer ${q.apiKey}`) return error(401, 'Incorrect API key provided');
  if (q.models && body.model !== undefined && !q.models.includes(body.model)) return error(404, `The model \`${body.model}\` does not exist`);
  for (const { quirk, value } of active(q)) {
    const answer = quirk.refuse?.(value, body, nth);
    if (answer) return answer;
  }
  return undefined;
}

export function delayOf(q: Quirks): number {
  return active(q).reduce((ms, { quirk, value }) => ms + (quirk.delayMs?.(value) ?? 0), 0);
}

/** Rewrites a completion body the way the provider would have sent it. */
export function shape(q: Quirks, completion: Record<string, unknown>, nth: number): Record<string, unknown> {
  for (const { quirk, value } of active(q)) quirk.shape?.(value, completion as Completion, nth);
  return completion;
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
