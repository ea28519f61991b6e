import type { Case, WeightedSlot } from '../slots/schema.js';
import { ANNOTATION, type SlotAnnotation } from '../reporters/protocol.js';

/** Tags and annotations of one generated slot test: how people filter (`--grep @hard`) and reporters read. */
export function slotTestDetails(c: Case, slot: WeightedSlot): { tag: string[]; annotation: { type: string; description: string }[] } {
  const payload: SlotAnnotation = {
    caseId: c.id,
    taskId: c.taskId,
    persona: c.persona,
    difficulty: c.difficulty,
    slotId: slot.id,
    targetComponent: slot.targetComponent,
    assertionType: slot.assertionType,
    weight: slot.weight,
    cTech: slot.cTech,
  };
  return {
    tag: [personaTag(c.persona), `@${c.difficulty}`, `@${slot.assertionType.toLowerCase()}`, `@task-${tagSafe(c.taskId)}`],
    annotation: [
      { type: 'weight', description: slot.weight.toFixed(3) },
      { type: 'c_tech', description: String(slot.cTech) },
      { type: 'assertion', description: `${slot.assertionType}: ${slot.expectedResult}` },
      { type: ANNOTATION.slot, description: JSON.stringify(payload) },
    ],
  };
}

export function personaTag(persona: string): string {
  return `@${persona.toLowerCase()}`;
}

export function slotTestTitle(slot: WeightedSlot): string {
  return `${slot.targetComponent} › ${slot.id}`;
}

export function caseTitle(c: Case): string {
  return `${c.id} ${c.task.title} [${c.difficulty}]`;
}

const tagSafe = (s: string): string => s.replace(/[^A-Za-z0-9_-]/g, '-');
