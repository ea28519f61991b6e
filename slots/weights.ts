import type { Slot } from './schema.js';

/**
 * The paper's slot weight: slots that share a target component form a group of N_G; together they are
 * worth more than one slot (d_test = 1 + 0.5 (N_G - 1)) but each is worth less than a lone one.
 * W_i = c_tech * d_test / N_G.
 */
export function slotWeights(slots: readonly Pick<Slot, 'targetComponent' | 'cTech'>[]): number[] {
  const groupSize = new Map<string, number>();
  for (const s of slots) groupSize.set(s.targetComponent, (groupSize.get(s.targetComponent) ?? 0) + 1);
  return slots.map((s) => {
    const n = groupSize.get(s.targetComponent)!;
    return (s.cTech * (1 + 0.5 * (n - 1))) / n;
  });
}

export function totalWeight(slots: readonly Pick<Slot, 'targetComponent' | 'cTech'>[]): number {
  return slotWeights(slots).reduce((a, b) => a + b, 0);
}

/**
 * A weight as a person reads it: at most three decimals, no trailing zeros (1.333, 1.5, 2). report.json and
 * the annotations' JSON keep the full number; this is for pages, sheets and the terminal.
 */
export function weightText(w: number): string {
  return String(Number(w.toFixed(3)));
}
