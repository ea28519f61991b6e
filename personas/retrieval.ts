import { z } from 'zod';
import type { ModelClient } from '../llm/client.js';
import type { StructuredResult } from '../llm/types.js';
import type { Slot } from '../slots/schema.js';
import { Bm25, bm25Idf } from './bm25.js';
import { prompt } from './definitions.js';
import { indexTerms, slotText } from './text.js';

/**
 * Stage 1 of the simulated user: which slots does a question ask about? Only those slots reach the
 * answer stage, so the user cannot reveal what was not asked even if it wanted to.
 */
export interface RetrievalOptions {
  /**
   * A slot must score at least this share of what one term unique to it would score. Relative, because raw
   * BM25 scores grow with the number of slots: a fixed cut-off that suits 12 slots rejects everything at 2.
   */
  minScore?: number;
  /** Slots after the best must reach this share of the best score: one question, one or two topics. */
  relative?: number;
  maxSlots?: number;
}

export const RETRIEVAL_DEFAULTS: Required<RetrievalOptions> = { minScore: 0.75, relative: 0.75, maxSlots: 2 };

export interface Ranked {
  slotId: string;
  score: number;
}

export function rankSlots(slots: readonly Slot[], question: string): Ranked[] {
  const index = new Bm25(slots.map((s) => indexTerms(slotText(s))));
  const scores = index.scores(indexTerms(question));
  return slots.map((s, i) => ({ slotId: s.id, score: scores[i]! })).sort((a, b) => b.score - a.score);
}

export function bm25Retrieve(slots: readonly Slot[], question: string, options: RetrievalOptions = {}): { slotIds: string[]; ranked: Ranked[] } {
  const o = { ...RETRIEVAL_DEFAULTS, ...options };
  const ranked = rankSlots(slots, question);
  const top = ranked[0]?.score ?? 0;
  const floor = o.minScore * bm25Idf(1, slots.length);
  if (top < floor) return { slotIds: [], ranked };
  const slotIds = ranked
    .filter((r) => r.score >= Math.max(floor, o.relative * top))
    .slice(0, o.maxSlots)
    .map((r) => r.slotId);
  return { slotIds, ranked };
}

export function retrievalSchema(slotIds: readonly string[], maxSlots: number) {
  return z.object({
    slot_ids: z.array(z.enum(slotIds as [string, ...string[]])).max(maxSlots),
    asks_for_everything: z.boolean(),
  });
}
export type LlmRetrieval = z.infer<ReturnType<typeof retrievalSchema>>;

export function describeSlots(slots: readonly Slot[]): string {
  return slots
    .map((s) => `- ${s.id}: ${s.task} (expected: ${s.expectedResult}; component: ${s.targetComponent}; ${s.assertionType})`)
    .join('\n');
}

export async function llmRetrieve(
  client: ModelClient,
  slots: readonly Slot[],
  visibleInstruction: string,
  question: string,
  maxSlots = RETRIEVAL_DEFAULTS.maxSlots,
): Promise<StructuredResult<LlmRetrieval>> {
  const system = prompt('retrieve', {
    instruction: visibleInstruction,
    slots: describeSlots(slots),
    max: String(maxSlots),
  });
  return client.structured(
    [
      { role: 'system', content: system },
      { role: 'user', content: question },
    ],
    retrievalSchema(slots.map((s) => s.id), maxSlots),
    'retrieve_slots',
  );
}
