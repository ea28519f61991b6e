import { expect as baseExpect, test } from '@playwright/test';
import { verdictAnnotation } from '../protocol/build.js';
import type { WeightedSlot } from '../slots/schema.js';
import type { SlotJudging } from './judged-slots.js';
import type { Verdict } from './types.js';

/**
 * `await expect(judging).toSatisfySlot(slot)`: gets the slot's verdict (judged in this test, or ahead of it
 * by the case's first slot test), shows the judge's steps and screenshots in this test, records the verdict
 * where the reporter and the HTML report find it, and turns it into a test outcome. An unjudged slot is
 * skipped with its reason, never counted as passed or failed; an errored one fails with a message that says
 * it is the harness's failure, and its annotation keeps it out of the model's scores.
 */
export const expect = baseExpect.extend({
  async toSatisfySlot(judging: SlotJudging, slot: WeightedSlot) {
    const info = test.info();
    const judged = await judging.judge(slot.id);
    const { verdict } = judged;
    await test.step(
      judged.step,
      async () => {
        for (const s of judged.steps) await test.step(s, async () => {});
        for (const a of judged.attachments) await info.attach(a.name, { path: a.path, contentType: a.contentType });
      },
      { box: true },
    );
    info.annotations.push(...judged.annotations);
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
          : `slot ${slot.id} (${slot.assertionType}) ${pass ? 'holds' : 'does not hold'}: ${slot.expectedResult}\n${verdict.judge}: ${verdict.evidence}`,
    };
  },
});

export function recordVerdict(v: Pick<Verdict, 'status' | 'judge' | 'evidence'> & Partial<Verdict>): void {
  test.info().annotations.push(verdictAnnotation(v));
}
