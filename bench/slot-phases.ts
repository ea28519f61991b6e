import { z } from 'zod';
import type { JudgingAnnotation } from '../protocol/annotations.js';
import { dist, DistSchema, type Dist } from './dist.js';

/**
 * Where a judged slot's time goes, from the phases each judge session records (judge/session-loop.ts): the
 * profile the issue asks for, kept in every bench instead of measured once. Each figure is per slot (the sum
 * over its session), its median and p95; `rest` is the slot's judging time outside the session's phases (a
 * fresh browser context, the failed slot's screenshot, the record written). A session that judged a case's
 * slots together (the paper profile) counts once, on the slot charged its time: its figures are per session.
 */
export const SlotPhasesSchema = z.object({
  slots: z.number().int(),
  open: DistSchema,
  look: DistSchema,
  model: DistSchema,
  act: DistSchema,
  rest: DistSchema,
  /** Medians per slot: looks at the page (labelling and reading it) and actions. */
  looks: z.number().nullable(),
  acts: z.number().nullable(),
});
export type SlotPhases = z.infer<typeof SlotPhasesSchema>;

/** Null when no slot carried phases (runs from before they were recorded, or every verdict read from a cache). */
export function slotPhases(judgings: readonly JudgingAnnotation[]): SlotPhases | null {
  const timed = judgings.flatMap((j) => (j.phases ? [{ ms: j.ms, p: j.phases }] : []));
  if (timed.length === 0) return null;
  const of = (pick: (p: NonNullable<JudgingAnnotation['phases']>) => number) => dist(timed.map((t) => pick(t.p)));
  return {
    slots: timed.length,
    open: of((p) => p.open),
    look: of((p) => p.look),
    model: of((p) => p.model),
    act: of((p) => p.act),
    rest: dist(timed.map((t) => Math.max(0, t.ms - t.p.open - t.p.look - t.p.model - t.p.act))),
    looks: of((p) => p.looks).median,
    acts: of((p) => p.acts).median,
  };
}

const ms = (d: Dist) => (d.median === null ? '–' : `${d.median}`);

/** The waits for rest are the page's (site/settle.ts): a quiet window of 100 ms after a load, 200 ms after an action. */
export function slotPhasesLine(label: string, p: SlotPhases): string {
  return (
    `Where a judged slot's time goes (${label}; median ms per slot over ${p.slots} slots): opening the site ${ms(p.open)} ` +
    `(its load and a 100 ms quiet window at least), ${p.looks ?? '–'} looks ${ms(p.look)} (labelling and reading the page), ` +
    `the judge model ${ms(p.model)}, ${p.acts ?? '–'} action${p.acts === 1 ? '' : 's'} ${ms(p.act)} (each with a 200 ms quiet window at least), ` +
    `the rest ${ms(p.rest)} (a fresh context, the failure screenshot, the record).`
  );
}
