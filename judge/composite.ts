import type { WeightedSlot } from '../slots/schema.js';
import type { Judge, SiteUnderTest, Verdict } from './types.js';

/**
 * Deterministic wins: a slot with a probe is judged by the probe, whatever model is configured; a slot
 * without one goes to the model judge when there is one, and is left unjudged (by the probe judge, which
 * says so) when there is not.
 */
export function createCompositeJudge(parts: { probe: Judge; model?: Judge }): Judge {
  const { probe, model } = parts;
  return {
    name: model ? `${probe.name}+${model.name}` : probe.name,
    judge(site: SiteUnderTest, slot: WeightedSlot): Promise<Verdict> {
      return slot.probe || !model ? probe.judge(site, slot) : model.judge(site, slot);
    },
  };
}
