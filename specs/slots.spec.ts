import { expect, test } from '../fixtures/index.js';
import { loadRuntime } from '../fixtures/runtime.js';
import { caseTitle, slotTestDetails, slotTestTitle } from './cases.js';

const { dataset } = await loadRuntime();

// One describe per case, one test per slot. The mode is 'default' inside a case so its tests stay in
// one shard and one worker, in order, while a failed slot does not skip the slots after it.
for (const c of dataset.cases) {
  test.describe(caseTitle(c), () => {
    test.describe.configure({ mode: 'default' });
    test.use({ caseId: c.id });
    for (const slot of c.slots) {
      test(slotTestTitle(slot), slotTestDetails(c, slot), async ({ site, judge }) => {
        await expect(site).toSatisfySlot(slot, judge);
      });
    }
  });
}
