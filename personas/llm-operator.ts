import { oneKindPerSlot } from './degradation/llm.js';
import { z } from 'zod';
import type { ModelClient } from '../llm/client.js';
import type { StructuredResult } from '../llm/types.js';
import type { Persona, Task } from '../slots/schema.js';
import { personaDefinition, prompt } from './definitions.js';
import { personaModule } from './registry.js';
import { describeSlots } from './retrieval.js';
import type { DegradedInstruction } from './types.js';

/**
 * The LLM operator: the model rewrites the gold instruction in the persona's voice and says which slots it
 * degraded. Slot ids are an enum of the task's own ids, so an invented id fails the schema and is fed back;
 * the per-persona rules (P-CON contradicts exactly one slot, a slot sits in at most one list) are checked
 * the same way.
 */
export function operatorSchema(task: Task, persona: Persona) {
  const ids = task.slots.map((s) => s.id) as [string, ...string[]];
  const SlotIds = z.array(z.enum(ids));
  return z
    .object({ instruction: z.string().min(1), omits: SlotIds, blurs: SlotIds, contradicts: SlotIds })
    .superRefine((v, ctx) => {
      oneKindPerSlot(v, ctx);
      // The persona's own rules (personas/<id>/index.ts), e.g. P-CON contradicts exactly one slot.
      for (const rule of personaModule(persona).rules) {
        if (!rule.holds(v)) ctx.addIssue({ code: 'custom', path: [rule.field], message: rule.message });
      }
      if (v.instruction.trim() === task.goldInstruction.trim()) {
        ctx.addIssue({ code: 'custom', path: ['instruction'], message: 'the instruction is unchanged' });
      }
    });
}

export async function llmDegrade(client: ModelClient, task: Task, persona: Persona): Promise<StructuredResult<DegradedInstruction>> {
  const def = personaDefinition(persona);
  const system = prompt('operator', {
    name: def.name,
    defect: def.defect,
    maxim: def.maxim,
    persona_prompt: def.operatorPrompt,
    slots: describeSlots(task.slots),
  });
  const r = await client.structured(
    [
      { role: 'system', content: system },
      { role: 'user', content: task.goldInstruction },
    ],
    operatorSchema(task, persona),
    'degraded_instruction',
  );
  if (!r.ok) return r;
  // Task order, no duplicates: the same degradation must serialise the same way whatever order the model used.
  const order = (ids: string[]) => task.slots.map((s) => s.id).filter((id) => ids.includes(id));
  const v = r.value;
  return { ...r, value: { instruction: v.instruction.trim(), omits: order(v.omits), blurs: order(v.blurs), contradicts: order(v.contradicts) } };
}
