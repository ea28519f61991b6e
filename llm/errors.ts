import type { Role } from '../config/roles.js';

/**
 * Three kinds of failure, because callers must treat them differently: an infrastructure failure says
 * nothing about the model (the case is errored and may be re-run); a model failure is the model's own
 * doing (a refusal, a cut-off reply); a schema failure is a reply that never matched its schema after the
 * allowed retries. None of them may ever be scored as a pass.
 */
export type LlmErrorKind = 'infra' | 'model' | 'schema';

export abstract class LlmError extends Error {
  abstract readonly kind: LlmErrorKind;
  constructor(
    readonly role: Role,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`[${role}] ${message}`, options);
  }
}

/** The endpoint could not be used: down, refused, timed out, rate-limited past the retries, bad key or URL. */
export class InfraError extends LlmError {
  readonly kind = 'infra' as const;
  constructor(
    role: Role,
    message: string,
    readonly attempts: number,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(role, message, options);
    this.name = 'InfraError';
  }
}

/** The endpoint answered but the model's reply cannot be used: rejected request, refusal, length cut-off. */
export class ModelError extends LlmError {
  readonly kind = 'model' as const;
  constructor(
    role: Role,
    message: string,
    readonly reason: 'bad-request' | 'refusal' | 'length' | 'content-filter',
    options?: { cause?: unknown },
  ) {
    super(role, message, options);
    this.name = 'ModelError';
  }
}

/** A structured reply that failed validation on every attempt; `issues` is the last attempt's complaint. */
export class SchemaError extends LlmError {
  readonly kind = 'schema' as const;
  constructor(
    role: Role,
    readonly schemaName: string,
    readonly attempts: number,
    readonly issues: string,
    readonly lastContent: string | null,
  ) {
    super(role, `reply for "${schemaName}" failed its schema ${attempts} time(s): ${issues}`);
    this.name = 'SchemaError';
  }
}

export function isLlmError(e: unknown): e is LlmError {
  return e instanceof LlmError;
}

/** One line for a trajectory or verdict: the kind first, so a reader sees at once whose fault it was. */
export function describeError(e: unknown): string {
  if (e instanceof LlmError) return `${e.kind} error: ${e.message}`;
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}
