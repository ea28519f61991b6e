import type { ModelClient } from '../llm/client.js';
import type { Case, WeightedSlot } from '../slots/schema.js';
import { runSession } from './llm-session.js';
import type { SessionResult } from './session-loop.js';
import { PROMPT_VERSION, type JudgeMode } from './prompt.js';
import { hashSite } from './site-hash.js';
import type { Judge, SiteUnderTest, Verdict } from './types.js';
import { slotHash, VerdictCache, type VerdictKey } from './verdict-cache.js';

/**
 * The LLM-SoM judge: a judge model explores the site through labelled screenshots (llm-session.ts).
 *
 * Per slot (default): one session per slot. Per case: the first slot test of a case runs one session for
 * all its slots (as the paper's code does) and every slot reads its verdict from that session, in memory
 * or, across processes and reruns, from the verdict cache.
 */
export interface LlmJudgeOptions {
  client: ModelClient;
  mode?: JudgeMode;
  /** Judge actions before a verdict is demanded. */
  stepCap?: number;
  /** Folder of the verdict cache (e.g. `<runDir>/verdicts`); none means no caching. */
  cacheDir?: string;
  /** In case mode, the slots a session covers (the composite leaves out those a probe decides). */
  caseSlots?: (c: Case) => WeightedSlot[];
}

export const DEFAULT_STEP_CAP = 10;

export function createLlmJudge(opts: LlmJudgeOptions): Judge {
  const mode = opts.mode ?? 'slot';
  const stepCap = opts.stepCap ?? DEFAULT_STEP_CAP;
  const cache = opts.cacheDir ? new VerdictCache(opts.cacheDir) : null;
  const name = `llm-som:${opts.client.model}${mode === 'case' ? ':case' : ''}`;
  const sessions = new Map<string, Promise<SessionResult>>();
  // The step cap changes what a judge can find out, so it is part of the mode a verdict was reached in.
  const keyOf = (siteHash: string, slot: WeightedSlot, c: Case): VerdictKey => ({
    siteHash,
    slotId: slot.id,
    slotHash: slotHash(slot, c),
    judgeModel: opts.client.model,
    promptVersion: PROMPT_VERSION,
    mode: `${mode}/steps-${stepCap}`,
  });

  const toVerdict = (r: SessionResult, slot: WeightedSlot, payer: boolean): Verdict => sessionVerdict(r, slot.id, { name, model: opts.client.model }, payer);

  return {
    name,
    async judge(site: SiteUnderTest, slot: WeightedSlot): Promise<Verdict> {
      const siteHash = site.root && cache ? await hashSite(site.root).catch(() => null) : null;
      if (cache && siteHash) {
        const hit = await cache.get(keyOf(siteHash, slot, site.case));
        // The tokens it cost when it was made stay with it, as an episode's do: a run's usage is what its
        // results cost, the same whether they were made now or before a crash.
        if (hit) return { ...hit, cached: true, durationMs: 0 };
      }
      if (mode === 'slot') {
        const v = toVerdict(await runSession({ client: opts.client, site, slots: [slot], mode, stepCap }), slot, true);
        if (cache && siteHash) await cache.put(keyOf(siteHash, slot, site.case), v);
        return v;
      }
      const sessionKey = `${site.case.id}\0${siteHash ?? site.url}`;
      let session = sessions.get(sessionKey);
      const payer = !session;
      if (!session) {
        const covered = opts.caseSlots ? opts.caseSlots(site.case) : site.case.slots;
        const slots = covered.some((s) => s.id === slot.id) ? covered : [...covered, slot];
        session = runSession({ client: opts.client, site, slots, mode, stepCap }).then(async (r) => {
          // Stored as charged: the session's tokens once, on the slot whose test ran it, so a rerun that reads
          // every slot from the cache counts the session once too.
          if (cache && siteHash) for (const s of slots) await cache.put(keyOf(siteHash, s, site.case), toVerdict(r, s, s.id === slot.id));
          return r;
        });
        sessions.set(sessionKey, session);
        // A failed session is not kept for the case's later slots: they may try again.
        session.then((r) => { if ([...r.outcomes.values()].every((o) => o.status === 'errored')) sessions.delete(sessionKey); }, () => sessions.delete(sessionKey));
      }
      const r = await session;
      if (!r.outcomes.has(slot.id)) {
        // A slot the session did not cover (the caller judges a slot outside caseSlots): judge it alone.
        return toVerdict(await runSession({ client: opts.client, site, slots: [slot], mode: 'slot', stepCap }), slot, true);
      }
      return toVerdict(r, slot, payer);
    },
  };
}

/**
 * A slot's verdict out of a session's result. When one session judged several slots, only the slot test
 * that ran it (the payer) is charged its time and tokens, so they are not counted twice.
 */
export function sessionVerdict(r: SessionResult, slotId: string, judge: { name: string; model: string }, payer: boolean): Verdict {
  const o = r.outcomes.get(slotId) ?? { status: 'errored' as const, evidence: 'the judge session did not cover this slot' };
  const note = r.injection ? ` [the page addressed the judge: ${JSON.stringify(r.injection)}]` : '';
  return {
    status: o.status,
    evidence: o.evidence + note,
    judge: judge.name,
    steps: r.steps,
    durationMs: payer ? r.durationMs : 0,
    injection: r.injection !== null,
    ...(o.unmentioned ? { unmentioned: true } : {}),
    blockedRequests: r.blockedRequests,
    tokens: payer ? r.tokens : { prompt: 0, completion: 0 },
    model: judge.model,
    ...(payer ? {} : { cached: true }),
    ...(payer && r.phases ? { phases: r.phases } : {}),
  };
}
