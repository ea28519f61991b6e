import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Profile } from '../config/profiles.js';
import type { ModelClient } from '../llm/client.js';
import type { EpisodeStatus } from '../protocol/enums.js';
import type { Case, WeightedSlot } from '../slots/schema.js';
import { sharedSession } from './case-session-cache.js';
import { sessionVerdict } from './llm-judge.js';
import type { SessionResult } from './session-loop.js';
import { runPaperSession } from './paper-session.js';
import { PROMPT_VERSION } from './prompt.js';
import { hashSite } from './site-hash.js';
import type { Judge, SiteUnderTest, Verdict } from './types.js';
import { slotHash } from './verdict-cache.js';

/**
 * The LLM judge of a profile whose judge session is per case (`judgeSession: 'case'`, the paper's): the
 * first slot test of a case runs one paper-shaped session (judge/paper-session.ts) over all the case's
 * slots the judge covers, the others read their verdict from it: in memory within a worker, and from
 * judge-session.json beside the episode across workers and reruns.
 */
export interface PaperJudgeOptions {
  client: ModelClient;
  profile: Profile;
  /** The slots a session covers (the composite leaves out those a probe decides). */
  caseSlots?: (c: Case) => WeightedSlot[];
}

/** The request the judge reads: the gold one, or (gold-if-submitted) the degraded one when the agent did not submit. */
export function judgeInstruction(rule: Profile['judgeInstruction'], c: Case, status: EpisodeStatus | undefined): string {
  // With no episode known (a judge run outside a benchmark run) the requirement itself is what is checked.
  return rule === 'gold' || status === undefined || status === 'submitted' ? c.task.goldInstruction : c.instruction;
}

export const SESSION_FILE = 'judge-session.json';

export function createPaperJudge(opts: PaperJudgeOptions): Judge {
  const { client, profile } = opts;
  const name = `llm-som:${client.model}:paper-case`;
  const rules = { judgeTurns: profile.judgeTurns, judgeScreenshotMemory: profile.judgeScreenshotMemory, stickyPass: profile.stickyPass, unmentioned: profile.unmentioned };
  const sessions = new Map<string, Promise<{ result: SessionResult; ran: boolean }>>();

  return {
    name,
    async judge(site: SiteUnderTest, slot: WeightedSlot): Promise<Verdict> {
      const covered = opts.caseSlots ? opts.caseSlots(site.case) : site.case.slots;
      const slots = covered.some((s) => s.id === slot.id) ? covered : [...covered, slot];
      const instruction = judgeInstruction(profile.judgeInstruction, site.case, site.episode?.status);
      const siteHash = site.root ? await hashSite(site.root).catch(() => null) : null;
      // Everything a session's verdicts depend on: a change in any of it is a new session.
      const key = createHash('sha256')
        .update(JSON.stringify({ model: client.model, PROMPT_VERSION, instruction, rules, siteHash, slots: slots.map((s) => [s.id, slotHash(s, site.case)]) }))
        .digest('hex')
        .slice(0, 24);
      const memKey = `${site.episode?.dir ?? site.case.id}\0${siteHash ?? site.url}\0${key}`;
      let session = sessions.get(memKey);
      const first = !session;
      if (!session) {
        const run = () => runPaperSession({ client, site, slots, instruction, rules });
        session = site.episode ? sharedSession(path.join(site.episode.dir, SESSION_FILE), key, run) : run().then((result) => ({ result, ran: true }));
        sessions.set(memKey, session);
        // A session that decided nothing is not kept for the case's later slots: they may try again.
        session.then(({ result }) => { if ([...result.outcomes.values()].every((o) => o.status === 'errored')) sessions.delete(memKey); }, () => sessions.delete(memKey));
      }
      const { result, ran } = await session;
      return sessionVerdict(result, slot.id, { name, model: client.model }, first && ran);
    },
  };
}
