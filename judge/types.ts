import type { Browser, Page } from '@playwright/test';
import type { EpisodeStatus } from '../protocol/enums.js';
import type { Verdict } from '../protocol/verdict.js';
import type { CrashFinding } from './crash-check.js';
import type { Case, WeightedSlot } from '../slots/schema.js';

export type { JudgeStep, Verdict } from '../protocol/verdict.js';
export type { SlotStatus as VerdictStatus } from '../protocol/enums.js';

/** What a judge is handed: the served submission and a fresh page on it. */
export interface SiteUnderTest {
  url: string;
  /** The served folder, when known: its content hash keys the verdict cache (no root, no caching). */
  root?: string;
  page: Page;
  browser: Browser;
  case: Case;
  /** The crash rule's finding, when the run's profile applies it (judge/crash-check.ts). */
  crash?: CrashFinding;
  /** The episode behind the site: its folder keeps per-case judgements, its status picks the judge's instruction. */
  episode?: { dir: string; status: EpisodeStatus };
}

/** The judge contract: one slot in, one verdict out. Probe and LLM-SoM judges both fit it. */
export interface Judge {
  name: string;
  judge(site: SiteUnderTest, slot: WeightedSlot): Promise<Verdict>;
}
