import { expect as baseExpect, test } from '@playwright/test';
import { verdictAnnotation } from '../protocol/build.js';
import type { WeightedSlot } from '../slots/schema.js';
import type { Judge, SiteUnderTest, Verdict } from './types.js';

/**
 * `await expect(site).toSatisfySlot(slot, judge)`: asks the judge, records its verdict where the
 * reporter and the HTML report find it, and turns it into a test outcome. An unjudged slot is skipped
 * with its reason, never counted as passed or failed; an errored one fails with a message that says
 * it is the harness's failure, and its annotation keeps it out of the model's scores.
 */
export const expect = baseExpect.extend({
  async toSatisfySlot(site: SiteUnderTest, slot: WeightedSlot, judge: Judge) {
    const info = test.info();
    const verdict = await test.step(`${judge.name} judges ${slot.id}: ${slot.task}`, () => judge.judge(site, slot), { box: true });
    recordVerdict(verdict);
    await info.attach(`verdict ${slot.id}`, { body: JSON.stringify(verdict, null, 2), contentType: 'application/json' });
    if (verdict.status === 'unjudged') test.skip(true, `unjudged: ${verdict.evidence}`);
    const pass = verdict.status === 'pass';
    return {
      pass,
      name: 'toSatisfySlot',
      message: () =>
        verdict.status === 'errored'
          ? `slot ${slot.id} errored (a harness failure, not the model's): ${verdict.evidence}`
          : `slot ${slot.id} (${slot.assertionType}) ${pass ? 'holds' : 'does not hold'}: ${slot.expectedResult}\n${judge.name}: ${verdict.evidence}`,
    };
  },
});

export function recordVerdict(v: Pick<Verdict, 'status' | 'judge' | 'evidence'> & Partial<Verdict>): void {
  test.info().annotations.push(verdictAnnotation(v));
}
