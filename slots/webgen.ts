import { z } from 'zod';
import type { CTech, Slot, Task } from './schema.js';

/**
 * WebGen-Bench's record format (data/test.jsonl of mnluzimu/WebGen-Bench) and the model-free decomposition
 * of its UI test cases into slots: one POSITIVE slot per test case, c_tech from the test category, and the
 * generic NEGATIVE slot every task gets. The model path (cli/build/decompose.ts) replaces the per-test part.
 */
export const WebgenTestSchema = z.looseObject({
  task: z.string().min(1),
  expected_result: z.string().min(1),
  task_category: z.looseObject({ primary_category: z.string(), subcategories: z.array(z.string()).optional() }),
});
export type WebgenTest = z.infer<typeof WebgenTestSchema>;

export const WebgenRecordSchema = z.looseObject({
  id: z.string().min(1),
  instruction: z.string().min(1),
  Category: z.looseObject({ primary_category: z.string() }),
  application_type: z.string().optional(),
  ui_instruct: z.array(WebgenTestSchema).min(1),
});
export type WebgenRecord = z.infer<typeof WebgenRecordSchema>;

/**
 * Without a model, c_tech follows the test category: design validation checks styling (1), functional and
 * data-display tests check behaviour (2): the most common stored c_tech of each category in the public release.
 */
export const CTECH_BY_TEST_CATEGORY: Record<string, CTech> = { 'Design Validation Testing': 1, 'Functional Testing': 2, 'Data Display Testing': 2 };

export const NEGATIVE_SLOT = {
  task: 'Look for interface elements or features that the original instruction did not ask for.',
  expectedResult: 'The site shows only what was requested; nothing unrequested (extra pages, forms, accounts, widgets) was added.',
  targetComponent: 'Unrequested_Element_Feature',
} as const;

const componentOf = (t: WebgenTest) => (t.task_category.subcategories?.[0] ?? t.task_category.primary_category).trim().replace(/\s+/g, '_');

export function offlineSlots(test: WebgenTest): Omit<Slot, 'id'>[] {
  return [{
    task: test.task,
    expectedResult: test.expected_result,
    targetComponent: componentOf(test),
    assertionType: 'POSITIVE',
    cTech: CTECH_BY_TEST_CATEGORY[test.task_category.primary_category] ?? 2,
    testCategory: test.task_category.primary_category,
  }];
}

/** A task from a WebGen record and the slots of each of its tests (offline or from the model); ids s1.. in order. */
export function webgenTask(rec: WebgenRecord, perTest: Omit<Slot, 'id'>[][], source: string): Task {
  const slots: Slot[] = [...perTest.flat(), { ...NEGATIVE_SLOT, assertionType: 'NEGATIVE' as const, cTech: 1 as const }].map((s, i) => ({ ...s, id: `s${i + 1}` }));
  return {
    id: rec.id,
    title: rec.application_type ?? rec.id,
    category: rec.Category.primary_category,
    goldInstruction: rec.instruction,
    slots,
    personas: {},
    source,
  };
}
