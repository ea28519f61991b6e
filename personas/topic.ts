import type { Slot } from '../slots/schema.js';

/**
 * Slots sharing a component are one topic ("Tile Movement": up, down, left, right): asked about one, the
 * user says all of them, and the leak test lets the answer speak of all of them. One definition for both.
 */

/** "menu_sections" and "Menu sections" name the same component. */
export function groupName(slot: Slot): string {
  return slot.targetComponent.trim().toLowerCase().replace(/[_-]+/g, ' ').replace(/\s+/g, ' ');
}

/** The ids, then every other requirement (POSITIVE slot) of their components, in the case's order. */
export function withTopic(slots: readonly Slot[], ids: readonly string[]): string[] {
  const names = new Set(slots.filter((s) => ids.includes(s.id)).map(groupName));
  return [...ids, ...slots.filter((s) => !ids.includes(s.id) && s.assertionType === 'POSITIVE' && names.has(groupName(s))).map((s) => s.id)];
}
