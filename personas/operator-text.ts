import type { Slot, Task } from '../slots/schema.js';
import type { Rng } from '../stats/prng.js';
import { sentenceFor, sentences } from './text.js';

/** Which sentence of the gold instruction states each slot, so an operator can edit a fact where it is said. */
export interface Alignment {
  sentences: string[];
  /** Slot id -> sentence index; slots the gold text never states clearly are absent. */
  sentenceOf: Map<string, number>;
}

export function align(task: Task): Alignment {
  const sents = sentences(task.goldInstruction);
  const sentenceOf = new Map<string, number>();
  for (const slot of task.slots) {
    const i = sentenceFor(slot, sents);
    if (i >= 0) sentenceOf.set(slot.id, i);
  }
  return { sentences: sents, sentenceOf };
}

/** Slots stated in a sentence: editing that sentence touches all of them. */
export function slotsIn(a: Alignment, index: number, slots: readonly Slot[]): Slot[] {
  return slots.filter((s) => a.sentenceOf.get(s.id) === index);
}

/** Slot ids in task order, so outputs do not depend on Set or Map insertion accidents. */
export function inTaskOrder(task: Task, ids: Iterable<string>): string[] {
  const want = new Set(ids);
  return task.slots.filter((s) => want.has(s.id)).map((s) => s.id);
}

/** Replace `{name}` placeholders in a data-file template. */
export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Picks n distinct items, keeping their original order (a degraded text keeps the gold's order). */
export function pickOrdered<T>(rng: Rng, items: readonly T[], n: number): T[] {
  const idx = items.map((_, i) => i);
  const chosen = new Set<number>();
  while (chosen.size < Math.min(n, items.length)) chosen.add(idx[Math.floor(rng() * idx.length)]!);
  return items.filter((_, i) => chosen.has(i));
}
