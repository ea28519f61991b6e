import { expect, test } from '../fixtures/index.js';
import { casesToDeclare } from '../fixtures/cases.js';
import { declaredRunAnnotation } from '../fixtures/run-annotation.js';
import type { Persona } from '../slots/schema.js';
import { caseTitle, slotTestDetails, slotTestTitle } from './cases.js';
import { callAt, slotLocation } from './slot-location.js';

/**
 * Declares one persona's cases: one describe per case, one test per slot. Each persona has its own spec file
 * (specs/<persona>.spec.ts, the project's testMatch) because Playwright loads a test's whole file in every
 * worker it starts, and it starts one after every failed slot: on the public dataset, declaring all four
 * personas' 3,000 tests cost each new worker about 0.45 s, four times what its own project needs.
 */
export async function declareSlotTests(persona: Persona): Promise<void> {
  // Which profile, dataset and judge these tests ran under: the report is scored from it (fixtures/run-annotation.ts).
  const run = declaredRunAnnotation();
  for (const c of await casesToDeclare(persona)) {
    test.describe(caseTitle(c), () => {
      // 'default' inside a case keeps its tests in one shard and one worker, in order, while a failed slot
      // does not skip the slots after it.
      test.describe.configure({ mode: 'default' });
      test.use({ caseId: c.id });
      for (const slot of c.slots) {
        // Declared as if from the slot's line in its task file: that is where the report points the reader.
        const details = slotTestDetails(c, slot);
        callAt(slotLocation(c, slot), test, slotTestTitle(slot), { ...details, annotation: [...details.annotation, run] }, async ({ judging }) => {
          await expect(judging).toSatisfySlot(slot);
        });
      }
    });
  }
}
