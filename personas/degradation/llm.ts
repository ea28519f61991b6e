import { z } from 'zod';
import type { ModelClient } from '../../llm/client.js';
import type { StructuredResult } from '../../llm/types.js';
import type { Task } from '../../slots/schema.js';
import { prompt } from '../definitions.js';
import { describeSlots } from '../retrieval.js';

/**
 * The judged annotator: the `operator` (or `user`) model reads the gold and the persona text and classifies
 * every slot. Ids are an enum of the task's own, and a slot in two lists fails the schema and is fed back.
 */
export function annotationSchema(slotIds: readonly string[]) {
  const Ids = z.array(z.enum(slotIds as [string, ...string[]]));
  return z.object({ omits: Ids, blurs: Ids, contradicts: Ids }).superRefine(oneKindPerSlot);
}

/** A slot is left out, blurred or contradicted, never two of them: the refinement both model replies share. */
export function oneKindPerSlot(v: { omits: string[]; blurs: string[]; contradicts: string[] }, ctx: z.RefinementCtx): void {
  const seen = new Map<string, string>();
  for (const list of ['omits', 'blurs', 'contradicts'] as const) {
    for (const id of v[list]) {
      const earlier = seen.get(id);
      if (earlier && earlier !== list) ctx.addIssue({ code: 'custom', path: [list], message: `slot ${id} is in both ${earlier} and ${list}` });
      seen.set(id, list);
    }
  }
}

export interface JudgedDegradation {
  omits: string[];
  blurs: string[];
  contradicts: string[];
}

/** The system prompt for one case; its text is part of the cache key, so editing the prompt re-asks. */
export function annotationPrompt(task: Pick<Task, 'goldInstruction' | 'slots'>, persona: string, shown: string): string {
  return prompt('annotate', { gold: task.goldInstruction, persona, shown, slots: describeSlots(task.slots) });
}

export async function annotateWithModel(
  client: ModelClient,
  task: Pick<Task, 'goldInstruction' | 'slots'>,
  persona: string,
  shown: string,
): Promise<StructuredResult<JudgedDegradation>> {
  const r = await client.structured(
    [
      { role: 'system', content: annotationPrompt(task, persona, shown) },
      { role: 'user', content: 'Classify every requirement.' },
    ],
    annotationSchema(task.slots.map((s) => s.id)),
    'degradation_annotation',
  );
  if (!r.ok) return r;
  const order = (ids: string[]) => task.slots.map((s) => s.id).filter((id) => ids.includes(id));
  return { ...r, value: { omits: order(r.value.omits), blurs: order(r.value.blurs), contradicts: order(r.value.contradicts) } };
}
