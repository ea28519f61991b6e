import type { Browser, Page } from '@playwright/test';
import type { Verdict } from '../protocol/verdict.js';
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
}

/** The judge contract: one slot in, one verdict out. Probe and LLM-SoM judges both fit it. */
export interface Judge {
  name: string;
  judge(site: SiteUnderTest, slot: WeightedSlot): Promise<Verdict>;
}
