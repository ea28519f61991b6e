import type { TokenUsage } from '../llm/usage.js';
import type { StepUsage } from './actions.js';

/**
 * Step token counts, carried from the model client's usage: a call whose provider gave no usage object
 * marks the sum unknown, and it stays unknown however much is added to it (unknown is not zero).
 */
export function stepUsageOf(u: TokenUsage): StepUsage {
  return { promptTokens: u.prompt, completionTokens: u.completion, ...(u.unknown ? { unknown: true } : {}) };
}

/** Adds `b` into `into` (a running total the caller owns). */
export function addStepUsage(into: StepUsage, b: StepUsage | TokenUsage | undefined): void {
  if (!b) return;
  into.promptTokens += 'prompt' in b ? b.prompt : b.promptTokens;
  into.completionTokens += 'prompt' in b ? b.completion : b.completionTokens;
  if (b.unknown) into.unknown = true;
}
