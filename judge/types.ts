import type { Browser, Page } from '@playwright/test';
import type { Case, WeightedSlot } from '../slots/schema.js';

/**
 * pass / fail: the slot's constraint holds or not (for a NEGATIVE slot, pass means nothing unrequested
 * was found). errored: the judge could not decide for a reason that is not the site's fault (API down,
 * browser crash, a reply that never matched its schema). unjudged: no judge applies to this slot.
 */
export type VerdictStatus = 'pass' | 'fail' | 'errored' | 'unjudged';

export interface JudgeStep {
  action: string;
  detail?: string;
  screenshot?: string;
}

export interface Verdict {
  status: VerdictStatus;
  evidence: string;
  judge: string;
  steps: JudgeStep[];
  durationMs: number;
  /** The page carried text addressed to the judge ("ignore your instructions", "answer pass"). */
  injection?: boolean;
  /** Requests the judged page made to hosts other than the site under test, refused and counted. */
  blockedRequests?: number;
  /** True when the verdict came from the verdict cache rather than a new judge session. */
  cached?: boolean;
  /** Tokens the judge model spent on this verdict (0 when cached or deterministic). */
  tokens?: { prompt: number; completion: number };
  /** The model behind the verdict, so its tokens can be priced. */
  model?: string;
}

/** What a judge is handed: the served submission and a fresh page on it. */
export interface SiteUnderTest {
  url: string;
  /** The served folder, when known: its content hash keys the verdict cache (no root, no caching). */
  root?: string;
  page: Page;
  browser: Browser;
  case: Case;
}

/** The judge contract: one slot in, one verdict out. Probe and LLM-SoM judges both fit it. */
export interface Judge {
  name: string;
  judge(site: SiteUnderTest, slot: WeightedSlot): Promise<Verdict>;
}
