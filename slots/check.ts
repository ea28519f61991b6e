import { difficultyPartition, optimalSse1d, partitionSse } from './difficulty.js';
import { lintTasks, type LintFindings } from './lint.js';
import type { Dataset, Difficulty } from './schema.js';
import { slotWeights, totalWeight } from './weights.js';

export interface WeightMismatch {
  task: string;
  slot: string;
  stored: number;
  computed: number;
}

export interface DatasetCheck {
  dataset: string;
  tasks: number;
  cases: number;
  slots: number;
  positiveSlots: number;
  negativeSlots: number;
  slotsWithProbe: number;
  weightsStored: number;
  weightMismatches: WeightMismatch[];
  difficultyAgreement: { agree: number; of: number; confusion: Record<string, number> };
  centroids: number[];
  sse: { computed: number; stored: number | null; optimum: number };
  difficultyCounts: { computed: Record<Difficulty, number>; stored: Record<Difficulty, number> | null };
  /** Quality findings that do not stop a run (slots/lint.ts). */
  lint: LintFindings;
}

const TOLERANCE = 0.01;

/** Recomputes weights and difficulty from the slots alone and compares them with what the file stores. */
export function checkDataset(d: Dataset): DatasetCheck {
  const totals = d.tasks.map((t) => totalWeight(t.slots));
  const partition = difficultyPartition(totals);
  const weightMismatches: WeightMismatch[] = [];
  let weightsStored = 0;
  for (const t of d.tasks) {
    const w = slotWeights(t.slots);
    t.slots.forEach((s, i) => {
      if (s.storedWeight === undefined) return;
      weightsStored++;
      if (Math.abs(s.storedWeight - w[i]!) > TOLERANCE) {
        weightMismatches.push({ task: t.id, slot: s.id, stored: s.storedWeight, computed: round(w[i]!) });
      }
    });
  }
  const confusion: Record<string, number> = {};
  let agree = 0;
  let of = 0;
  d.tasks.forEach((t, i) => {
    if (!t.storedDifficulty) return;
    of++;
    const computed = partition.labels[i]!;
    if (computed === t.storedDifficulty) agree++;
    const key = `${t.storedDifficulty}->${computed}`;
    confusion[key] = (confusion[key] ?? 0) + 1;
  });
  const allStored = d.tasks.every((t) => t.storedDifficulty);
  const slots = d.tasks.flatMap((t) => t.slots);
  return {
    dataset: d.source,
    tasks: d.tasks.length,
    cases: d.cases.length,
    slots: slots.length,
    positiveSlots: slots.filter((s) => s.assertionType === 'POSITIVE').length,
    negativeSlots: slots.filter((s) => s.assertionType === 'NEGATIVE').length,
    slotsWithProbe: slots.filter((s) => s.probe).length,
    weightsStored,
    weightMismatches,
    difficultyAgreement: { agree, of, confusion },
    centroids: partition.centroids.map(round),
    sse: {
      computed: round(partition.sse),
      stored: allStored ? round(partitionSse(totals, d.tasks.map((t) => t.storedDifficulty!))) : null,
      optimum: round(optimalSse1d(totals)),
    },
    difficultyCounts: {
      computed: count(partition.labels),
      stored: allStored ? count(d.tasks.map((t) => t.storedDifficulty!)) : null,
    },
    lint: lintTasks(d.tasks),
  };
}

function count(labels: Difficulty[]): Record<Difficulty, number> {
  const c: Record<Difficulty, number> = { easy: 0, middle: 0, hard: 0 };
  for (const l of labels) c[l]++;
  return c;
}

const round = (x: number): number => Math.round(x * 1e4) / 1e4;
