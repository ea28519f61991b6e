import type { SlotRecord } from '../reporters/metrics.js';
import type { EpisodeAnnotation, VisualAnnotation } from '../protocol/annotations.js';
import { buildReport, type Report } from '../reporters/report.js';
import type { Difficulty, Persona } from '../slots/schema.js';

/** A case as tests describe it: who ran it and how each slot came out. Weights and c_tech default to 1. */
export interface CaseSpec {
  id: string;
  agent: string;
  persona?: Persona;
  difficulty?: Difficulty;
  trial?: number;
  positives: SlotRecord['status'][];
  negatives?: SlotRecord['status'][];
  weights?: number[];
  cTech?: number[];
  visual?: VisualAnnotation;
}

/** An episode annotation with plain defaults; tests override what they measure. */
export function episodeAnnotation(over: Partial<EpisodeAnnotation> = {}): EpisodeAnnotation {
  return {
    agent: 'a1',
    status: 'submitted',
    cached: false,
    steps: 3,
    stepCap: 20,
    counts: { clarify: 1, implement: 1, verify: 1, submit: 1, invalid: 0 },
    questionBeforeCode: true,
    linesOfCode: 40,
    tokens: { promptTokens: 0, completionTokens: 0 },
    durationMs: 1,
    questions: [{ retrieved: [] }],
    degraded: null,
    usage: [],
    roleErrors: [],
    ...over,
  };
}

/** The slot records the reporter would gather for one case. */
export function records(spec: CaseSpec): SlotRecord[] {
  const statuses = [...spec.positives.map((s) => [s, 'POSITIVE'] as const), ...(spec.negatives ?? []).map((s) => [s, 'NEGATIVE'] as const)];
  return statuses.map(([status, assertionType], i) => ({
    caseId: spec.id,
    taskId: spec.id.split('_')[0]!,
    persona: spec.persona ?? 'P-MIN',
    difficulty: spec.difficulty ?? 'easy',
    slotId: `s${i + 1}`,
    targetComponent: 'C',
    assertionType,
    weight: spec.weights?.[i] ?? 1,
    cTech: spec.cTech?.[i] ?? 1,
    status,
    evidence: '',
    trial: spec.trial ?? 0,
    episode: episodeAnnotation({ agent: spec.agent }),
    ...(spec.visual ? { visual: spec.visual } : {}),
  }));
}

export function reportOf(cases: readonly CaseSpec[], dataset = 'test'): Report {
  const agents = [...new Set(cases.map((c) => c.agent))].sort();
  return buildReport(cases.flatMap(records), { startedAt: '2026-01-02T03:04:05.000Z', durationMs: 1234, dataset, agents, playwrightStatus: 'passed' }, { bootstrap: { resamples: 400, seed: 7, level: 0.95 } });
}
