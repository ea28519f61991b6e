import type { ModelClient } from '../llm/client.js';
import { describeError } from '../llm/errors.js';
import type { Case } from '../slots/schema.js';
import type { IntentAnnotation } from '../protocol/annotations.js';
import { IntentReplySchema, type IntentPrompt } from './intent-prompt.js';
import { newNonce, untrustedBlock } from '../vision/neutralise.js';

/**
 * The trajectory-level judgement a judge model gives once per episode: IAS, read off the agent's reasoning
 * and questions (judge/intent-prompt.ts), and the LLM-judged variant of CHR (the retrieval-based CHR needs
 * no model). A reply that never matches its schema, or one that skips a slot, is recorded as an error, so
 * the case has no such figure rather than a made-up one.
 */
export async function judgeIntent(client: ModelClient, c: Case, prompt: IntentPrompt): Promise<IntentAnnotation> {
  const res = await client.structured(
    [
      { role: 'system', content: prompt.system },
      { role: 'user', content: `${prompt.trusted}\n${untrustedBlock(prompt.untrusted, newNonce())}` },
    ],
    IntentReplySchema,
    'intent_judgement',
  );
  const base = { model: client.model, tokens: { prompt: res.usage.prompt, completion: res.usage.completion, ...(res.usage.unknown ? { unknown: true } : {}) } };
  if (!res.ok) return { ...base, ias: null, hitSlots: [], error: describeError(res.error) };
  const judged = new Set(res.value.slotHits.map((h) => h.slot));
  const missing = c.slots.filter((s) => !judged.has(s.id)).map((s) => s.id);
  if (missing.length > 0) return { ...base, ias: res.value.ias, hitSlots: [], error: `the judge said nothing of slot(s) ${missing.join(', ')}` };
  const known = new Set(c.slots.map((s) => s.id));
  return { ...base, ias: res.value.ias, hitSlots: res.value.slotHits.filter((h) => h.hit && known.has(h.slot)).map((h) => h.slot) };
}
