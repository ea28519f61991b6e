import type OpenAI from 'openai';
import { loadedSdk, openaiSdk } from './openai-sdk.js';
import { zodResponseFormat } from 'openai/helpers/zod';
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import { z } from 'zod';
import { callKey, requestGist, type CallCache } from './call-cache.js';
import { InfraError, ModelError, SchemaError } from './errors.js';
import { limited, type RoleLimits } from './limits.js';
import { DEFAULT_RETRY, withRetries, type RetryPolicy } from './retry.js';
import { ROLE_DEFAULTS, type Role, type RoleConfig, type RoleConfigs } from '../config/roles.js';
import { isEmptyReply, reasoningField, toolCallsOf, toSdkMessage, toSdkToolChoice, usageOf } from './sdk-shapes.js';
import { currentMode, endpointKey, isFormatRefusal, remember, stepDown, validate, withSchema, type ConcreteMode } from './structured-mode.js';
import { readReply, splitReasoning } from './tolerant.js';
import type { ChatMessage, ChatOptions, ChatResult, StructuredResult } from './types.js';
import { addUsage, NO_USAGE, UsageMeter, type PriceTable, type RoleUsage, type TokenUsage } from './usage.js';

export interface ClientOptions {
  /** Record / replay of model calls (llm/call-cache.ts); absent: every call goes to the endpoint. */
  cache?: CallCache;
  /** IWB_<ROLE>_CONCURRENCY and IWB_<ROLE>_RPM (llm/limits.ts), applied to every HTTP attempt; a cache hit takes no turn. */
  limits?: Partial<Record<Role, RoleLimits>>;
  retry?: Partial<RetryPolicy>;
  /** Extra attempts for a structured reply that fails its schema; each gets the validation error fed back. */
  schemaRetries?: number;
  /** Share one meter across the clients of a run to get per-role totals in one place. */
  meter?: UsageMeter;
  prices?: PriceTable;
}

/** A reply cut at the token limit is asked for again once, with this many times the limit. */
const CUT_RETRY_FACTOR = 2;

/** The one place the openai SDK is called. One client per role; see config/roles.ts for where configs come from. */
export class ModelClient {
  readonly role: Role;
  readonly model: string;
  private sdk: Promise<OpenAI> | undefined;
  private readonly sdkOptions: ConstructorParameters<typeof OpenAI>[0];
  private readonly policy: RetryPolicy;
  private readonly schemaRetries: number;
  private readonly meter: UsageMeter;
  private readonly maxTokens: number;
  private readonly endpoint: string;
  private readonly cache: CallCache | undefined;
  private readonly limits: RoleLimits | undefined;

  constructor(
    private readonly config: RoleConfig,
    options: ClientOptions = {},
  ) {
    this.role = config.role;
    this.model = config.model;
    this.policy = { ...DEFAULT_RETRY, ...(config.timeoutMs !== undefined ? { timeoutMs: config.timeoutMs } : {}), ...options.retry };
    this.maxTokens = config.maxTokens ?? ROLE_DEFAULTS[config.role].maxTokens;
    this.endpoint = endpointKey(config.baseURL, config.model);
    this.schemaRetries = options.schemaRetries ?? 2;
    this.cache = options.cache;
    this.limits = options.limits?.[config.role];
    this.meter = options.meter ?? new UsageMeter(options.prices);
    this.sdkOptions = {
      apiKey: config.apiKey,
      ...(config.baseURL !== undefined ? { baseURL: config.baseURL } : {}),
      maxRetries: 0,
      timeout: this.policy.timeoutMs,
    };
  }

  private openai(): Promise<OpenAI> {
    this.sdk ??= openaiSdk().then((m) => new m.default(this.sdkOptions));
    return this.sdk;
  }

  /** Per HTTP attempt, after the role's IWB_<ROLE>_TIMEOUT_MS. */
  get timeoutMs(): number {
    return this.policy.timeoutMs;
  }

  get baseURL(): string | undefined {
    return this.config.baseURL;
  }

  /** The structured-output mode the next structured call starts with (after any fallback so far). */
  structuredMode(): ConcreteMode {
    return currentMode(this.config.jsonMode ?? 'auto', this.endpoint);
  }

  /**
   * The token limit field: api.openai.com wants max_completion_tokens (its reasoning models refuse
   * max_tokens); DeepSeek, Ollama, llama.cpp and older vLLM know only max_tokens.
   */
  private limit(tokens: number): { max_tokens: number } | { max_completion_tokens: number } {
    const hosted = this.config.baseURL === undefined || /api\.openai\.com/.test(this.config.baseURL);
    return hosted ? { max_completion_tokens: tokens } : { max_tokens: tokens };
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
    const key = this.cache && this.cache.mode !== 'off' ? callKey(this.config.baseURL, body) : undefined;
    if (key) {
      const hit = await this.cache!.get(key);
      if (hit) {
        this.meter.record(this.role, this.model, usageOf(hit.completion));
        return { completion: hit.completion, attempts: 1, latencyMs: hit.latencyMs };
      }
      if (this.cache!.mode === 'replay') {
        throw new InfraError(this.role, `IWB_LLM_CACHE=replay: no recorded reply for this request (model ${this.model}, "${requestGist(body)}")`, 0);
      }
    }
    const { value, attempts } = await withRetries(this.role, this.policy, async () => {
      const completion = await limited(this.limits, this.endpoint, this.role, async () => (await this.openai()).chat.completions.create(body));
      // An OpenAI-compatible server that answers 200 without choices is broken, not the model: retry it.
      if (!completion || !Array.isArray(completion.choices) || completion.choices.length === 0) {
        throw new SyntaxError('a completion with no choices');
      }
      return completion;
    });
    this.meter.record(this.role, this.model, usageOf(value));
    const latencyMs = Date.now() - started;
    // An empty reply is a hiccup to be asked again, not an answer to be replayed.
    if (key && !isEmptyReply(value)) await this.cache!.put(key, this.role, this.model, value, latencyMs);
    return { completion: value, attempts, latencyMs };
  }

  async chat(messages: ChatMessage[], options: ChatOptions = {}): Promise<ChatResult> {
    const tools: ChatCompletionTool[] | undefined = options.tools?.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
    const request = (maxTokens: number) =>
      this.complete({
        messages: messages.map(toSdkMessage),
        ...(tools?.length ? { tools } : {}),
        ...(options.toolChoice && tools?.length ? { tool_choice: toSdkToolChoice(options.toolChoice) } : {}),
        ...this.limit(maxTokens),
        ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      });
    const limit = options.maxTokens ?? this.maxTokens;
    let { completion, attempts, latencyMs } = await request(limit);
    let usage = usageOf(completion);
    const resend = async (maxTokens: number) => {
      const again = await request(maxTokens);
      completion = again.completion;
      attempts += again.attempts;
      latencyMs += again.latencyMs;
      usage = addUsage(usage, usageOf(again.completion));
    };
    // An empty reply that was neither cut, refused nor a tool call is a provider hiccup (overload, a dropped
    // stream), not the model's answer: resent within the retry policy, then the endpoint's failure.
    for (let empties = 0; isEmptyReply(completion); ) {
      if (++empties > this.policy.retries) {
        throw new InfraError(this.role, `the endpoint returned an empty reply ${empties} time(s)`, attempts);
      }
      await resend(limit);
    }
    if (completion.choices[0]!.finish_reason === 'length') {
      // Cut at the limit: once more with a higher one; a second cut is the caller's to report.
      await resend(limit * CUT_RETRY_FACTOR);
    }
    const choice = completion.choices[0]!;
    const toolCalls = toolCallsOf(choice.message);
    const split = choice.message.content == null ? { text: null } : splitReasoning(choice.message.content);
    const reasoning = [reasoningField(choice.message), 'reasoning' in split ? split.reasoning : undefined].filter(Boolean).join('\n\n');
    return {
      content: split.text,
      toolCalls,
      finishReason: choice.finish_reason ?? 'unknown',
      usage,
      attempts,
      latencyMs,
      ...(reasoning ? { reasoning } : {}),
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
    const jsonSchema = format.json_schema.schema;
    const convo = messages.map(toSdkMessage);
    const configured = this.config.jsonMode ?? 'auto';
    let mode = this.structuredMode();
    let usage: TokenUsage = { ...NO_USAGE };
    let attempts = 0;
    let issues = '';
    let lastContent: string | null = null;
    let limit = options.maxTokens ?? this.maxTokens;
    let raisedLimit = false;
    for (let round = 0; round <= this.schemaRetries; ) {
      let completion: ChatCompletion;
      try {
        const r = await this.complete({
          messages: withSchema(convo, mode, name, jsonSchema),
          ...(mode === 'json_schema' ? { response_format: format } : mode === 'json_object' ? { response_format: { type: 'json_object' as const } } : {}),
          ...this.limit(limit),
          ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
        });
        completion = r.completion;
        attempts += r.attempts;
      } catch (e) {
        const status = e instanceof ModelError && isApiError(e.cause) ? e.cause.status : undefined;
        const next = e instanceof ModelError && isFormatRefusal(status, e.message) ? stepDown(configured, this.endpoint, mode) : undefined;
        if (!next) throw e;
        mode = next;
        continue;
      }
      if (configured === 'auto') remember(this.endpoint, mode);
      usage = addUsage(usage, usageOf(completion));
      const choice = completion.choices[0]!;
      if (choice.message.refusal) throw new ModelError(this.role, `refused: ${choice.message.refusal}`, 'refusal');
      if (choice.finish_reason === 'content_filter') {
        throw new ModelError(this.role, 'reply stopped by the content filter', 'content-filter');
      }
      lastContent = choice.message.content ?? null;
      const read = readReply(lastContent ?? '', reasoningField(choice.message));
      const checked = validate(schema, read.json, choice.finish_reason);
      if (checked.ok) {
        return { ok: true, value: checked.value, usage, attempts, raw: lastContent ?? '', mode, ...(read.reasoning ? { reasoning: read.reasoning } : {}) };
      }
      issues = checked.issues;
      if (choice.finish_reason === 'length' && !raisedLimit) {
        // Cut at the limit: the same request once more with room to finish, not a schema round.
        raisedLimit = true;
        limit *= CUT_RETRY_FACTOR;
        continue;
      }
      round++;
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

function isApiError(e: unknown): e is InstanceType<NonNullable<ReturnType<typeof loadedSdk>>['APIError']> {
  const sdk = loadedSdk();
  return sdk !== undefined && e instanceof sdk.APIError;
}
