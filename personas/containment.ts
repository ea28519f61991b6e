import { z } from 'zod';
import type { ModelClient } from '../llm/client.js';
import type { StructuredResult } from '../llm/types.js';
import type { Slot } from '../slots/schema.js';
import { prompt } from './definitions.js';
import { describeSlots } from './retrieval.js';
import { concreteFacts, leakRoots, slotText, tokens } from './text.js';

/**
 * Stage 3: does an answer give away a requirement the question did not ask about? A fact counts only
 * when it is distinctive: absent from the question, the instruction the agent already sees, the retrieved
 * slots and the persona's own stock phrases. Otherwise "header" in an answer about the header colour would
 * count as leaking every other header slot.
 */
export interface ContainmentContext {
  slots: readonly Slot[];
  retrievedIds: readonly string[];
  question: string;
  instruction: string;
  /** Words the answer may use freely: the persona's templates, so "my cousin" is never a leak. */
  allowedText?: string;
}

export interface LexicalLeak {
  slotId: string;
  /** The distinctive terms found in the answer, for the trajectory and for the regenerate prompt. */
  terms: string[];
}

/** The terms that would give a slot away, given what the answer may already say. */
export function distinctiveTerms(slot: Slot, ctx: ContainmentContext): { concrete: string[]; stems: string[]; component: string[] } {
  const retrieved = ctx.slots.filter((s) => ctx.retrievedIds.includes(s.id));
  const allowedText = [ctx.question, ctx.instruction, ctx.allowedText ?? '', ...retrieved.map(slotText)].join(' ');
  const allowedTokens = new Set(tokens(allowedText));
  const allowedStems = new Set(leakRoots(allowedText));
  const facts = concreteFacts(slotText(slot));
  const concrete = [...facts.colours, ...facts.numbers].filter((t) => !allowedTokens.has(t));
  const stems = [...new Set(leakRoots(slotText(slot)))].filter((s) => !allowedStems.has(s) && !concrete.includes(s));
  const component = [...new Set(leakRoots(slot.targetComponent))].filter((s) => stems.includes(s));
  return { concrete, stems, component };
}

export function lexicalLeaks(answer: string, ctx: ContainmentContext): LexicalLeak[] {
  const said = new Set(tokens(answer));
  const saidStems = new Set(leakRoots(answer));
  const out: LexicalLeak[] = [];
  for (const slot of ctx.slots) {
    if (ctx.retrievedIds.includes(slot.id)) continue;
    const d = distinctiveTerms(slot, ctx);
    const concrete = d.concrete.filter((t) => said.has(t));
    const stems = d.stems.filter((s) => saidStems.has(s));
    // One shared noun is often chance; two, or one from a slot that has little else, names the requirement,
    // and so does naming the hidden slot's component ("a login page" gives away that a login page matters).
    const namesComponent = d.component.length > 0 && d.component.every((s) => saidStems.has(s));
    const leaks = concrete.length > 0 || stems.length >= 2 || (stems.length === 1 && d.stems.length <= 2) || namesComponent;
    if (leaks) out.push({ slotId: slot.id, terms: [...concrete, ...stems] });
  }
  return out;
}

export function containmentSchema(hiddenIds: readonly string[]) {
  return z.object({ leaked_slot_ids: z.array(z.enum(hiddenIds as [string, ...string[]])) });
}

/** The LLM second opinion: catches paraphrases the word check cannot see ("dark blue" for "navy"). */
export async function llmLeaks(
  client: ModelClient,
  answer: string,
  ctx: ContainmentContext,
): Promise<StructuredResult<{ leaked_slot_ids: string[] }> | undefined> {
  const hidden = ctx.slots.filter((s) => !ctx.retrievedIds.includes(s.id));
  if (hidden.length === 0) return undefined;
  const system = prompt('contain', {
    instruction: ctx.instruction,
    question: ctx.question,
    hidden: describeSlots(hidden),
  });
  return client.structured(
    [
      { role: 'system', content: system },
      { role: 'user', content: answer },
    ],
    containmentSchema(hidden.map((s) => s.id)),
    'containment_check',
  );
}
