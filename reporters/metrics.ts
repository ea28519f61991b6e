import type { Difficulty, Persona } from '../slots/schema.js';
import type { EpisodeAnnotation, SlotAnnotation, VisualAnnotation } from './protocol.js';

/** One slot test's outcome, as the reporter gathered it. Pure data: no Playwright types. */
export interface SlotRecord extends SlotAnnotation {
  status: 'pass' | 'fail' | 'errored' | 'unjudged';
  evidence: string;
  injection?: boolean;
  visual?: VisualAnnotation;
  episode?: EpisodeAnnotation;
}

export interface CaseResult {
  id: string;
  taskId: string;
  persona: Persona;
  difficulty: Difficulty;
  agent: string;
  /** Passed POSITIVE weight over judged POSITIVE weight; null when no POSITIVE slot was judged. */
  tcr: number | null;
  /** Some judged NEGATIVE slot failed; null when none was judged. */
  hallucinated: boolean | null;
  /** Every judged slot passed; null when nothing was judged. */
  sr: boolean | null;
  episodeStatus: EpisodeAnnotation['status'] | 'unknown';
  episodeCached: boolean | null;
  /** Some page of the submission addressed the judge; its verdicts deserve a human look. */
  injectionFlagged: boolean;
  /** The final page showed a deterministic visual bug; null when it was not checked. */
  visualBug: boolean | null;
  visualFindings: string[];
  slots: { id: string; status: SlotRecord['status']; weight: number; assertionType: 'POSITIVE' | 'NEGATIVE' }[];
}

export interface Aggregate {
  /** Mean TCR over cases that have one. */
  tcr: number | null;
  /** Share of cases with a judged NEGATIVE slot in which one failed. */
  hr: number | null;
  /** Share of judged cases in which every judged slot passed. */
  sr: number | null;
  cases: number;
  judgedSlots: number;
  unjudgedSlots: number;
  erroredSlots: number;
  erroredCases: number;
  /** Share of checked cases whose final page has a visual bug. */
  vbr: number | null;
}

const judged = (s: { status: string }): boolean => s.status === 'pass' || s.status === 'fail';

/** Groups slot records by case, in first-seen order, and scores each case. */
export function caseResults(records: readonly SlotRecord[]): CaseResult[] {
  const byCase = new Map<string, SlotRecord[]>();
  for (const r of records) {
    const list = byCase.get(r.caseId) ?? [];
    list.push(r);
    byCase.set(r.caseId, list);
  }
  return [...byCase.values()].map(scoreCase);
}

export function scoreCase(slots: readonly SlotRecord[]): CaseResult {
  const first = slots[0]!;
  const positives = slots.filter((s) => s.assertionType === 'POSITIVE' && judged(s));
  const negatives = slots.filter((s) => s.assertionType === 'NEGATIVE' && judged(s));
  const positiveWeight = sum(positives.map((s) => s.weight));
  const passedWeight = sum(positives.filter((s) => s.status === 'pass').map((s) => s.weight));
  const judgedAll = slots.filter(judged);
  const episode = slots.find((s) => s.episode)?.episode;
  const visual = slots.find((s) => s.visual)?.visual;
  return {
    id: first.caseId,
    taskId: first.taskId,
    persona: first.persona,
    difficulty: first.difficulty,
    agent: episode?.agent ?? 'unknown',
    tcr: positiveWeight > 0 ? passedWeight / positiveWeight : null,
    hallucinated: negatives.length > 0 ? negatives.some((s) => s.status === 'fail') : null,
    sr: judgedAll.length > 0 ? judgedAll.every((s) => s.status === 'pass') : null,
    episodeStatus: episode?.status ?? 'unknown',
    // A case's episode ran in this run if any of its tests saw it run rather than read it from disk.
    episodeCached: episode ? slots.every((s) => s.episode?.cached !== false) : null,
    injectionFlagged: slots.some((s) => s.injection === true),
    visualBug: visual ? visual.bug : null,
    visualFindings: visual?.findings ?? [],
    slots: slots.map((s) => ({ id: s.slotId, status: s.status, weight: s.weight, assertionType: s.assertionType })),
  };
}

export function aggregate(cases: readonly CaseResult[]): Aggregate {
  const slots = cases.flatMap((c) => c.slots);
  return {
    tcr: mean(cases.map((c) => c.tcr)),
    hr: mean(cases.map((c) => (c.hallucinated === null ? null : c.hallucinated ? 1 : 0))),
    sr: mean(cases.map((c) => (c.sr === null ? null : c.sr ? 1 : 0))),
    cases: cases.length,
    judgedSlots: slots.filter(judged).length,
    unjudgedSlots: slots.filter((s) => s.status === 'unjudged').length,
    erroredSlots: slots.filter((s) => s.status === 'errored').length,
    erroredCases: cases.filter((c) => c.episodeStatus === 'errored').length,
    vbr: mean(cases.map((c) => (c.visualBug === null ? null : c.visualBug ? 1 : 0))),
  };
}

/** Aggregates per value of a key, keys in sorted order so reports are stable under sharding. */
export function groupBy(cases: readonly CaseResult[], key: (c: CaseResult) => string): Record<string, Aggregate> {
  const groups = new Map<string, CaseResult[]>();
  for (const c of cases) {
    const k = key(c);
    groups.set(k, [...(groups.get(k) ?? []), c]);
  }
  return Object.fromEntries([...groups.keys()].sort().map((k) => [k, aggregate(groups.get(k)!)]));
}

export function mean(values: readonly (number | null)[]): number | null {
  const defined = values.filter((v): v is number => v !== null);
  return defined.length === 0 ? null : sum(defined) / defined.length;
}

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
