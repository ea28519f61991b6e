/**
 * The habits of real OpenAI-compatible providers that the model client absorbs, one row each: who does it,
 * how it shows on the wire, what the client does, and the one function that does it. The client reads the
 * patterns below, the fake server (testkit/fake-quirks.ts) offers each row under its name, and docs/providers.md
 * is generated from the rows (`npx iwb docs providers --write`; test/llm-quirks.test.ts fails on drift).
 * Pure data: no imports, so every llm/ file may read it.
 */
export interface QuirkRow {
  /** Who is known to do it. */
  readonly providers: string;
  /** How it shows on the wire. */
  readonly shows: string;
  /** What the client does about it. */
  readonly client: string;
  /** `file#export` or `file#Class.method`: the one function that handles it (checked by the drift test). */
  readonly handledBy: string;
  /** What the client reads off the row, where the handling needs data. */
  readonly refusal?: RegExp | { readonly status: readonly number[]; readonly message: RegExp };
  readonly tags?: readonly string[];
  readonly fields?: readonly string[];
  readonly retryAfterHeaders?: ReadonlyArray<{ readonly header: string; readonly msPerUnit: number }>;
  readonly maxTimeouts?: number;
}

/** A 400/422 whose message is about the response format, not about the conversation. */
const FORMAT_REFUSAL = { status: [400, 422], message: /response_format|json_schema|json_object|response format|structured output|guided/i } as const;

/** A server saying it cannot do what was asked (images, tools), whatever status it picked for it. */
const CAPABILITY_REFUSAL = /image input is not supported|does not support (image|vision|multimodal|tools?)|image_url.*not supported|multimodal.*not supported/i;

export const QUIRKS = {
  refuseJsonSchema: {
    providers: 'DeepSeek, Moonshot/Kimi',
    shows: 'HTTP 400 "This response_format type is unavailable now" to `response_format: json_schema`',
    client: 'with `IWB_<ROLE>_JSON_MODE=auto`, steps down to `json_object` with the schema in the system prompt, once per endpoint and model for the whole process',
    handledBy: 'llm/structured-mode.ts#stepDown',
    refusal: FORMAT_REFUSAL,
  },
  refuseResponseFormat: {
    providers: 'some llama.cpp builds and proxies',
    shows: 'HTTP 400 naming `response_format` to any `response_format`',
    client: 'steps down once more, to `prompt`: no `response_format`, the schema in the system prompt',
    handledBy: 'llm/structured-mode.ts#stepDown',
    refusal: FORMAT_REFUSAL,
  },
  refuseImages: {
    providers: 'text-only models: vLLM (400), llama.cpp server (500 "image input is not supported")',
    shows: 'an error naming image input, whatever its status',
    client: 'not retried, even as a 5xx: an infrastructure error at once; the preflight tells the role to use a vision model (the agent: `IWB_COPILOT_MODEL`)',
    handledBy: 'llm/retry.ts#withRetries',
    refusal: CAPABILITY_REFUSAL,
  },
  refuseTools: {
    providers: 'llama.cpp server without `--jinja`',
    shows: 'HTTP 400 to a request with `tools`',
    client: 'the preflight marks the role without tool calling and names `IWB_AGENT=openai:artifact`',
    handledBy: 'llm/preflight.ts#checkRole',
    refusal: CAPABILITY_REFUSAL,
  },
  fenceJson: {
    providers: 'Qwen, Llama, Kimi in `json_object` and `prompt` modes',
    shows: 'the JSON inside a Markdown code fence (`json`), often with a sentence before and after',
    client: 'unwraps the fence, else takes the first balanced JSON object, before validation',
    handledBy: 'llm/tolerant.ts#readReply',
  },
  thinkBlock: {
    providers: 'Qwen3 and R1 distills behind vLLM or Ollama',
    shows: 'the content opens with `<think>...</think>` (or `<thinking>`, `<reasoning>`); cut by the token limit, it never closes',
    client: 'sets the block aside as reasoning (kept in the trajectory, never validated or shown to the user); an unclosed one makes the whole reply reasoning',
    handledBy: 'llm/tolerant.ts#splitReasoning',
    tags: ['think', 'thinking', 'reasoning'],
  },
  thinkWithoutOpening: {
    providers: 'R1 and QwQ chat templates that put `<think>` in the prompt',
    shows: 'the content starts mid-thought and the reasoning ends with a lone `</think>`',
    client: 'everything before the lone closing tag is reasoning',
    handledBy: 'llm/tolerant.ts#splitReasoning',
  },
  reasoningContent: {
    providers: "DeepSeek R1, vLLM's reasoning parsers, Ollama's think",
    shows: 'the reasoning in `message.reasoning_content` (or `message.reasoning`) beside the content',
    client: 'kept as the reply\'s reasoning, joined with any think block',
    handledBy: 'llm/sdk-shapes.ts#reasoningField',
    fields: ['reasoning_content', 'reasoning'],
  },
  noUsage: {
    providers: 'Ollama and llama.cpp (some versions)',
    shows: 'a completion without a `usage` object',
    client: "the call's tokens and cost are unknown (null in report.json), not 0",
    handledBy: 'llm/sdk-shapes.ts#usageOf',
  },
  toolArgsAsObject: {
    providers: 'older Ollama, some proxies',
    shows: 'tool-call `arguments` as a JSON object instead of a string',
    client: 'serialises the object, so the agent reads the call as any other',
    handledBy: 'llm/sdk-shapes.ts#toolCallsOf',
  },
  rateLimited: {
    providers: 'every hosted API under load',
    shows: 'HTTP 429, with or without `Retry-After` (seconds) or `retry-after-ms`',
    client: 'waits what the server asked (capped at the policy\'s longest delay), else backs off exponentially with jitter; past the retries an infrastructure error',
    handledBy: 'llm/retry.ts#withRetries',
    retryAfterHeaders: [
      { header: 'retry-after-ms', msPerUnit: 1 },
      { header: 'retry-after', msPerUnit: 1000 },
    ],
  },
  overloaded: {
    providers: 'hosted APIs at peak, local servers restarting',
    shows: 'HTTP 5xx (500, 502, 503)',
    client: 'retried with backoff like a 429; past the retries an infrastructure error',
    handledBy: 'llm/retry.ts#withRetries',
  },
  slowReply: {
    providers: 'local servers on CPU (Ollama, llama.cpp), cold starts',
    shows: 'no reply within the role\'s `IWB_<ROLE>_TIMEOUT_MS`',
    client: 'the request is resent unchanged once (a server that took the whole limit twice will again), then an infrastructure error',
    handledBy: 'llm/retry.ts#withRetries',
    maxTimeouts: 2,
  },
  malformedBody: {
    providers: 'broken proxies, servers that crash mid-reply',
    shows: 'HTTP 200 with a body that is not JSON',
    client: 'retried like a 5xx',
    handledBy: 'llm/retry.ts#withRetries',
  },
  noChoices: {
    providers: 'proxies that swallow an upstream error',
    shows: 'HTTP 200 with no `choices`',
    client: 'retried like a malformed body',
    handledBy: 'llm/client.ts#ModelClient.complete',
  },
  emptyReply: {
    providers: 'overloaded servers, dropped streams',
    shows: 'an empty content (or only reasoning) that is neither cut, refused nor a tool call',
    client: 'asked again within the retry policy, never cached; then an infrastructure error',
    handledBy: 'llm/client.ts#ModelClient.chat',
  },
} as const satisfies Record<string, QuirkRow>;

export type QuirkName = keyof typeof QUIRKS;

export const QUIRK_NAMES = Object.keys(QUIRKS) as QuirkName[];
