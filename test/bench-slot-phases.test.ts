import assert from 'node:assert/strict';
import { test } from 'node:test';
import { slotPhases, slotPhasesLine } from '../bench/slot-phases.js';

const phases = (open: number, look: number, model: number, act: number, looks = 2, acts = 1) => ({ open, look, model, act, looks, acts });

test('where a judged slot went: medians per slot, the rest outside the session, nothing from slots without phases', () => {
  const p = slotPhases([
    { by: 's1', ms: 1000, phases: phases(300, 250, 20, 350) },
    { by: 's1', ms: 900, phases: phases(280, 240, 10, 330) },
    { by: 's1', ms: 1200, phases: phases(320, 260, 30, 560, 3, 2) },
    // A verdict read from a cache or charged to another slot carries no phases: not a slot of this figure.
    { by: 's1', ms: 5 },
  ])!;
  assert.equal(p.slots, 3);
  assert.deepEqual([p.open.median, p.look.median, p.model.median, p.act.median], [300, 250, 20, 350]);
  assert.deepEqual([p.rest.median, p.rest.p95], [40, 80]);
  assert.deepEqual([p.looks, p.acts], [2, 1]);
  assert.match(slotPhasesLine('record, 1 worker', p), /over 3 slots\): opening the site 300 .* 2 looks 250 .* the judge model 20, 1 action 350 .* the rest 40/);
  // The session cannot have taken longer than the slot's judging: a negative rest is clock noise, shown as 0.
  assert.equal(slotPhases([{ by: 's1', ms: 10, phases: phases(5, 5, 5, 5) }])!.rest.median, 0);
  assert.equal(slotPhases([{ by: 's1', ms: 10 }]), null);
});
