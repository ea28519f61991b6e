import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { Case } from '../../slots/schema.js';
import { annotateOffline } from './offline.js';

/**
 * How far degradation records agree with hand labels, per kind: of the slots a record files under a kind,
 * the share the labels file there too (precision), and of the slots the labels file there, the share the
 * record finds (recall). Counted over every (record, slot) pair of the sample, so a record with many slots
 * weighs more, as it does in a run.
 */
export const DEGRADATION_KINDS = ['omits', 'blurs', 'contradicts'] as const;
export type DegradationKind = (typeof DEGRADATION_KINDS)[number];

const LabelSchema = z.object({ omits: z.array(z.string()), blurs: z.array(z.string()), contradicts: z.array(z.string()) });
export type DegradationLabel = z.infer<typeof LabelSchema>;
const LabelFileSchema = z.object({ about: z.string(), labels: z.record(z.string(), LabelSchema) });

export function readDegradationLabels(file: string): Record<string, DegradationLabel> {
  const parsed = LabelFileSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file}: ${z.prettifyError(parsed.error)}`);
  return parsed.data.labels;
}

export interface KindAgreement {
  /** Slots both file under the kind. */
  agreed: number;
  /** Slots the records file under the kind. */
  found: number;
  /** Slots the labels file under the kind. */
  labelled: number;
  precision: number;
  recall: number;
}

export type Agreement = Record<DegradationKind, KindAgreement>;

const ratio = (n: number, d: number) => (d === 0 ? 1 : Math.round((n / d) * 1000) / 1000);

/** Compares records with labels on the labelled cases; a labelled id the dataset lacks is an error naming it. */
export function agreement(labels: Record<string, DegradationLabel>, recordOf: (caseId: string) => DegradationLabel | undefined): Agreement {
  const out = {} as Agreement;
  for (const kind of DEGRADATION_KINDS) {
    let agreed = 0;
    let found = 0;
    let labelled = 0;
    for (const [id, label] of Object.entries(labels)) {
      const record = recordOf(id);
      if (!record) throw new Error(`degradation labels: record ${id}: no such case in the dataset`);
      const want = new Set(label[kind]);
      found += record[kind].length;
      labelled += want.size;
      agreed += record[kind].filter((s) => want.has(s)).length;
    }
    out[kind] = { agreed, found, labelled, precision: ratio(agreed, found), recall: ratio(agreed, labelled) };
  }
  return out;
}

/** The offline annotator's agreement with the labels. */
export function offlineAgreement(labels: Record<string, DegradationLabel>, cases: readonly Case[]): Agreement {
  const byId = new Map(cases.map((c) => [c.id, c]));
  return agreement(labels, (id) => {
    const c = byId.get(id);
    return c && annotateOffline(c.task, c.instruction);
  });
}
