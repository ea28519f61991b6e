import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions';
import { z } from 'zod';
import { InfraError, ModelError, SchemaError } from './errors.js';
import { DEFAULT_RETRY, withRetries, type RetryPolicy } from './retry.js';
import type { Role, RoleConfig, RoleConfigs } from './roles.js';
import type { ChatMessage, ChatOptions, ChatResult, StructuredResult, ToolCall, ToolChoice } from './types.js';
import { addUsage, NO_USAGE, UsageMeter, type PriceTable, type RoleUsage, type TokenUsage } from './usage.js';

export interface ClientOptions {
  retry?: Partial<RetryPolicy>;
  /** Extra attempts for a structured reply that fails its schema; each gets the validation error fed back. */
  schemaRetries?: number;
  /** Share one meter across the clients of a run to get per-role totals in one place. */
  meter?: UsageMeter;
  prices?: PriceTable;
}

function toSdkMessage(m: ChatMessage): ChatCompletionMessageParam {
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

function toSdkToolChoice(c: ToolChoice): ChatCompletionToolChoiceOption {
  return typeof c === 'string' ? c : { type: 'function', function: { name: c.name } };
}

function usageOf(completion: ChatCompletion): TokenUsage {
  return { prompt: completion.usage?.prompt_tokens ?? 0, completion: completion.usage?.completion_tokens ?? 0 };
}

/** The one place the openai SDK is called. One client per role; see llm/roles.ts for where configs come from. */
export class ModelClient {
  readonly role: Role;
  readonly model: string;
  private readonly sdk: OpenAI;
  private readonly policy: RetryPolicy;
  private readonly schemaRetries: number;
  private readonly meter: UsageMeter;

  constructor(
    private readonly config: RoleConfig,
    options: ClientOptions = {},
  ) {
    this.role = config.role;
    this.model = config.model;
    this.policy = { ...DEFAULT_RETRY, ...options.retry };
    this.schemaRetries = options.schemaRetries ?? 2;
    this.meter = options.meter ?? new UsageMeter(options.prices);
    this.sdk = new OpenAI({
      apiKey: config.apiKey,
      ...(config.baseURL !== undefined ? { baseURL: config.baseURL } : {}),
      maxRetries: 0,
      timeout: this.policy.timeoutMs,
    });
  }

  /** Tokens and calls this role used so far (shared with other roles when the meter is shared). */
  usage(): RoleUsage {
    return this.meter.get(this.role);
  }

  private async complete(
    params: Omit<ChatCompletionCreateParamsNonStreaming, 'model'>,
  ): Promise<{ completion: ChatCompletion; attempts: number; latencyMs: number }> {
    const started = Date.now();
    const body: ChatCompletionCreateParamsNonStreaming = {
      model: this.model,
      ...(this.config.temperature !== undefined ? { temperature: this.config.temperature } : {}),
      ...(this.config.seed !== undefined ? { seed: this.config.seed } : {}),
      ...params,
    };
    const { value, attempts } = await withRetries(this.role, this.policy, async () => {
      const completion = await this.sdk.chat.completions.create(body);
      // An OpenAI-compatible server that answers 200 without choices is broken, not the model: retry it.
      if (!completion || !Array.isArray(completion.choices) || completion.choices.length === 0) {
        throw new SyntaxError('a completion with no choices');
      }
      return completion;
    });
    this.meter.record(this.role, this.model, usageOf(value));
    return { completion: value, attempts, latencyMs: Date.now() - started };
  }

  async chat(messages: ChatMessage[], options: ChatOptions = {}): Promise<ChatResult> {
    const tools: ChatCompletionTool[] | undefined = options.tools?.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
    const { completion, attempts, latencyMs } = await this.complete({
      messages: messages.map(toSdkMessage),
      ...(tools?.length ? { tools } : {}),
      ...(options.toolChoice && tools?.length ? { tool_choice: toSdkToolChoice(options.toolChoice) } : {}),
      ...(options.maxTokens !== undefined ? { max_completion_tokens: options.maxTokens } : {}),
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
    });
    const choice = completion.choices[0]!;
    const toolCalls: ToolCall[] = [];
    for (const t of choice.message.tool_calls ?? []) {
      if (t.type === 'function') toolCalls.push({ id: t.id, name: t.function.name, arguments: t.function.arguments });
    }
    return {
      content: choice.message.content ?? null,
      toolCalls,
      finishReason: choice.finish_reason ?? 'unknown',
      usage: usageOf(completion),
      attempts,
      latencyMs,
    };
  }

  /**
   * A reply validated by `schema`. A reply that is not JSON or does not match is sent back with the
   * validation error, up to `schemaRetries` times; after that the result is `{ ok: false, error: SchemaError }`
   * which callers must record as an error. Infrastructure failures throw InfraError; refusals throw ModelError.
   * Built on `create` with a zodResponseFormat rather than `parse`, because `parse` throws away the raw reply
   * we need to feed back.
   */
  async structured<S extends z.ZodType>(
    messages: ChatMessage[],
    schema: S,
    name: string,
    options: Pick<ChatOptions, 'maxTokens' | 'temperature'> = {},
  ): Promise<StructuredResult<z.output<S>>> {
    const format = zodResponseFormat(schema, name);
    const convo = messages.map(toSdkMessage);
    let usage: TokenUsage = { ...NO_USAGE };
    let attempts = 0;
    let issues = '';
    let lastContent: string | null = null;
    for (let round = 0; round <= this.schemaRetries; round++) {
      const { completion, attempts: http } = await this.complete({
        messages: convo,
        response_format: format,
        ...(options.maxTokens !== undefined ? { max_completion_tokens: options.maxTokens } : {}),
        ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      });
      attempts += http;
      usage = addUsage(usage, usageOf(completion));
      const choice = completion.choices[0]!;
      if (choice.message.refusal) throw new ModelError(this.role, `refused: ${choice.message.refusal}`, 'refusal');
      if (choice.finish_reason === 'content_filter') {
        throw new ModelError(this.role, 'reply stopped by the content filter', 'content-filter');
      }
      lastContent = choice.message.content ?? null;
      const checked = validate(schema, lastContent, choice.finish_reason);
      if (checked.ok) return { ok: true, value: checked.value, usage, attempts, raw: lastContent ?? '' };
      issues = checked.issues;
      convo.push(
        { role: 'assistant', content: lastContent ?? '' },
        {
          role: 'user',
          content:
            `Your reply did not match the required JSON schema "${name}": ${issues}\n` +
            'Reply again with only a JSON object that matches the schema.',
        },
      );
    }
    return { ok: false, error: new SchemaError(this.role, name, this.schemaRetries + 1, issues, lastContent), usage, attempts };
  }
}

function validate<S extends z.ZodType>(
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

/** One client per configured role; unconfigured roles are absent, which callers read as "offline". */
export function createClients(roles: RoleConfigs, options: ClientOptions = {}): Partial<Record<Role, ModelClient>> {
  const meter = options.meter ?? new UsageMeter(options.prices);
  const out: Partial<Record<Role, ModelClient>> = {};
  for (const config of Object.values(roles)) {
    if (config) out[config.role] = new ModelClient(config, { ...options, meter });
  }
  return out;
}

export { InfraError, ModelError, SchemaError };
