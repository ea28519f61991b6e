import type { ModelClient } from '../llm/client.js';
import type { Role } from '../config/roles.js';
import { createLlmJudge } from './llm-judge.js';
import { createProbeJudge } from './probe-judge.js';
import type { JudgeMode } from './prompt.js';
import type { Case, WeightedSlot } from '../slots/schema.js';
import { createPaperJudge } from './paper-judge.js';
import type { Judge, SiteUnderTest, Verdict } from './types.js';
import { crashEvidence } from './crash-check.js';
import type { Profile } from '../config/profiles.js';

export interface JudgeDeps {
  clients: Partial<Record<Role, ModelClient>>;
  /** Per slot or per case, resolved against the profile by readJudgeSettings (IWB_JUDGE_MODE). */
  mode?: JudgeMode;
  stepCap?: number;
  /** Verdict cache folder, e.g. `<runDir>/verdicts`; without it every run asks the model again. */
  cacheDir?: string;
  /** The run's rules (config/profiles.ts); without one, the iwb profile's (no crash rule). */
  profile?: Profile;
}

/**
 * The judge a run uses. Offline (no `judge` client): the deterministic probe runner, and slots without a
 * probe are unjudged. With a judge model: still the probe for every slot that has one (deterministic
 * wins), and the LLM-SoM judge for the rest; in case mode its session covers only those slots.
 */
export function selectJudge(deps: JudgeDeps): Judge {
  const judge = selectSlotJudge(deps);
  return deps.profile?.crashRule ? createCrashRuleJudge(judge) : judge;
}

function selectSlotJudge(deps: JudgeDeps): Judge {
  const probe = createProbeJudge();
  const client = deps.clients.judge;
  if (!client) return probe;
  // A profile with a case-wide session (the paper's) gets the paper-shaped judge; IWB_JUDGE_MODE chooses only
  // among the sessions the profile allows (config/judge-settings.ts refuses the rest at start), so it never disagrees.
  const caseSlots = (c: Case) => c.slots.filter((s) => !s.probe);
  if (deps.profile?.judgeSession === 'case') return createCompositeJudge({ probe, model: createPaperJudge({ client, profile: deps.profile, caseSlots }) });
  const model = createLlmJudge({
    client,
    ...(deps.mode ? { mode: deps.mode } : {}),
    ...(deps.stepCap !== undefined ? { stepCap: deps.stepCap } : {}),
    ...(deps.cacheDir ? { cacheDir: deps.cacheDir } : {}),
    caseSlots,
  });
  return createCompositeJudge({ probe, model });
}

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

/**
 * The crash rule in front of any judge: a site the crash check found CRASHED (judge/crash-check.ts) fails
 * every slot, probe or not, and no judge is asked; any other site goes to the judge behind it.
 */
export function createCrashRuleJudge(inner: Judge): Judge {
  return {
    name: inner.name,
    async judge(site: SiteUnderTest, slot: WeightedSlot): Promise<Verdict> {
      if (!site.crash?.crashed) return inner.judge(site, slot);
      return { status: 'fail', evidence: crashEvidence(site.crash), judge: 'crash-rule', steps: [], durationMs: 0 };
    },
  };
}
