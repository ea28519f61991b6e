import type { Case, WeightedSlot } from '../slots/schema.js';
import { weightText } from '../slots/weights.js';
import { slotAnnotation, type Annotation } from '../protocol/build.js';

/** Tags and annotations of one generated slot test: how people filter (`--grep @hard`) and reporters read. */
export function slotTestDetails(c: Case, slot: WeightedSlot): { tag: string[]; annotation: Annotation[] } {
  return {
    tag: [personaTag(c.persona), `@${c.difficulty}`, `@${slot.assertionType.toLowerCase()}`, `@task-${tagSafe(c.taskId)}`],
    annotation: [
      { type: 'weight', description: weightText(slot.weight) },
      { type: 'c_tech', description: String(slot.cTech) },
      { type: 'assertion', description: `${slot.assertionType}: ${slot.expectedResult}` },
      slotAnnotation(c, slot),
      ...allureLabels(c, slot),
    ],
  };
}

/**
 * Allure labels as Playwright annotations of type `@allure.label.<name>`, which allure-playwright 3 turns
 * into labels (allure-js-commons `getMetadataLabel`). Annotations, not the runtime API (`allure.epic()`),
 * because the runtime API sends its labels as test attachments, which would show in every HTML report and
 * blob even when Allure is not in use; annotations are static and cost nothing at run time (the HTML report
 * lists them beside `weight` and `c_tech`). Difficulty needs no label of its own: allure-playwright already
 * makes every Playwright tag (`@easy`, `@p-min`, ...) an Allure tag.
 */
export function allureLabels(c: Case, slot: WeightedSlot): Annotation[] {
  const label = (name: string, value: string): Annotation => ({ type: `@allure.label.${name}`, description: value });
  return [
    label('epic', c.persona),
    label('feature', `${c.task.title} (${c.taskId})`),
    label('story', `${slot.id} ${slot.targetComponent}`),
    label('severity', allureSeverity(slot.weight)),
  ];
}

export type AllureSeverity = 'blocker' | 'critical' | 'normal' | 'minor' | 'trivial';

/**
 * A slot's weight W = c_tech (1 + 0.5 (N_G - 1)) / N_G lies in (c_tech / 2, c_tech], so the thresholds sit
 * just under the weight of a lone slot: W >= 2.5 blocker (a lone c_tech 3), >= 1.75 critical (a lone
 * c_tech 2, a c_tech 3 in a small group), >= 1 normal (a lone c_tech 1, grouped c_tech 2), >= 0.7 minor
 * (a c_tech 1 that shares its component with one other slot), trivial below.
 */
export const SEVERITY_THRESHOLDS: readonly (readonly [number, AllureSeverity])[] = [
  [2.5, 'blocker'],
  [1.75, 'critical'],
  [1, 'normal'],
  [0.7, 'minor'],
];

export function allureSeverity(weight: number): AllureSeverity {
  // Weights are sums of halves and thirds; the epsilon keeps 1.0 - 1e-16 from dropping a level.
  return SEVERITY_THRESHOLDS.find(([min]) => weight >= min - 1e-9)?.[1] ?? 'trivial';
}

export function personaTag(persona: string): string {
  return `@${persona.toLowerCase()}`;
}

/** The spec file that declares a persona's slot tests: specs/p-min.spec.ts for P-MIN. */
export function personaSpecFile(persona: string): string {
  return `${persona.toLowerCase()}.spec.ts`;
}

export function slotTestTitle(slot: WeightedSlot): string {
  return `${slot.targetComponent} › ${slot.id}`;
}

export function caseTitle(c: Case): string {
  return `${c.id} ${c.task.title} [${c.difficulty}]`;
}

const tagSafe = (s: string): string => s.replace(/[^A-Za-z0-9_-]/g, '-');
