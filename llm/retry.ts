import { loadedSdk } from './openai-sdk.js';
import { InfraError, LlmError, ModelError } from './errors.js';
import { QUIRKS } from './quirks.js';
import type { Role } from '../config/roles.js';

/**
 * Our own retry loop rather than the SDK's: the SDK's backoff starts at 0.5 s and cannot be tuned, which
 * makes fault tests slow, and it cannot tell us how many attempts a call took. The SDK is therefore built
 * with maxRetries 0 and only its per-attempt timeout is used.
 */
export interface RetryPolicy {
  /** Extra attempts after the first, for 408 / 409 / 429 / 5xx / connection failures / timeouts / bad bodies. */
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Per attempt. */
  timeoutMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 3, baseDelayMs: 500, maxDelayMs: 8000, timeoutMs: 120_000 };

interface Classified {
  retryable: boolean;
  timeout?: boolean;
  message: string;
  status?: number;
  retryAfterMs?: number;
}

/** The wait a 429 (or 503) asked for, from the first header of the rateLimited quirk that holds a number. */
function retryAfter(headers: Headers | undefined): number | undefined {
  for (const { header, msPerUnit } of QUIRKS.rateLimited.retryAfterHeaders) {
    const raw = headers?.get(header);
    if (raw && Number.isFinite(Number(raw))) return Number(raw) * msPerUnit;
  }
  return undefined;
}

function classify(e: unknown, timeoutMs: number): Classified | LlmError {
  if (e instanceof LlmError) return e;
  // Until a request has loaded the SDK, no error can be one of its own.
  const sdk = loadedSdk();
  if (sdk && e instanceof sdk.APIConnectionTimeoutError) return { retryable: true, timeout: true, message: `timed out after ${timeoutMs} ms` };
  if (sdk && e instanceof sdk.APIConnectionError) {
    const cause = e.cause instanceof Error ? `: ${e.cause.message}` : '';
    return { retryable: true, message: `connection failed${cause}` };
  }
  if (sdk && e instanceof sdk.APIError && typeof e.status === 'number') {
    const s = e.status;
    const headers = e.headers instanceof Headers ? e.headers : undefined;
    const after = retryAfter(headers);
    const base: Classified = {
      // llama.cpp's server answers an image sent to a text-only model with 500: permanent, not transient.
      retryable: (s === 408 || s === 409 || s === 429 || s >= 500) && !CAPABILITY_REFUSAL.test(e.message),
      message: `HTTP ${s}: ${e.message}`,
      status: s,
      ...(after !== undefined ? { retryAfterMs: after } : {}),
    };
    return base;
  }
  // A body that is not JSON surfaces as a SyntaxError from the SDK: a broken proxy or server, worth a retry.
  if (e instanceof SyntaxError) return { retryable: true, message: `malformed response body: ${e.message}` };
  return { retryable: false, message: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
}

const CAPABILITY_REFUSAL = QUIRKS.refuseImages.refusal;
const MAX_TIMEOUTS = QUIRKS.slowReply.maxTimeouts;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `attempt` until it succeeds or the policy gives up; every failure that escapes is an LlmError. */
export async function withRetries<T>(
  role: Role,
  policy: RetryPolicy,
  attempt: () => Promise<T>,
): Promise<{ value: T; attempts: number }> {
  let attempts = 0;
  let timeouts = 0;
  for (;;) {
    attempts += 1;
    try {
      return { value: await attempt(), attempts };
    } catch (e) {
      const c = classify(e, policy.timeoutMs);
      if (c instanceof LlmError) throw c;
      // 400 / 422 mean the endpoint read our request and refused it: usually context length, a model matter.
      if (c.status === 400 || c.status === 422) throw new ModelError(role, c.message, 'bad-request', { cause: e });
      if (c.timeout) timeouts += 1;
      if (!c.retryable || attempts > policy.retries || timeouts >= MAX_TIMEOUTS) {
        const why = c.retryable ? `gave up after ${attempts} attempt(s), last: ${c.message}` : c.message;
        throw new InfraError(role, why, attempts, c.status, { cause: e });
      }
      const backoff = Math.min(policy.baseDelayMs * 2 ** (attempts - 1), policy.maxDelayMs);
      // Jitter keeps parallel workers that hit one rate limit together from retrying in lockstep.
      const jittered = backoff * (1 + Math.random() * 0.25);
      await sleep(Math.min(c.retryAfterMs ?? jittered, policy.maxDelayMs));
    }
  }
}
