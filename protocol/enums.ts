import { z } from 'zod';

/**
 * Every enum a run's data passes through, defined once. Loaders, the episode loop, judges, the annotation
 * protocol and report.json all read their values from here, so a new status or persona is one edit.
 */

export const PERSONAS = ['P-MIN', 'P-RAM', 'P-INT', 'P-CON'] as const;
export const PersonaSchema = z.enum(PERSONAS);
export type Persona = z.infer<typeof PersonaSchema>;

export const DIFFICULTIES = ['easy', 'middle', 'hard'] as const;
export const DifficultySchema = z.enum(DIFFICULTIES);
export type Difficulty = z.infer<typeof DifficultySchema>;

export const AssertionTypeSchema = z.enum(['POSITIVE', 'NEGATIVE']);
export type AssertionType = z.infer<typeof AssertionTypeSchema>;

/**
 * pass / fail: the slot's constraint holds or not (for a NEGATIVE slot, pass means nothing unrequested was
 * found). errored: the harness could not decide for a reason that is not the site's fault (API down,
 * browser crash, a reply that never matched its schema). unjudged: no judge applies to this slot.
 */
export const SlotStatusSchema = z.enum(['pass', 'fail', 'errored', 'unjudged']);
export type SlotStatus = z.infer<typeof SlotStatusSchema>;

/** A decided verdict: the only statuses that enter a rate. */
export const isJudged = (s: { status: SlotStatus | string }): boolean => s.status === 'pass' || s.status === 'fail';

/**
 * How an episode ended: the agent submitted, ran out of steps, failed its verify audits too many times in a
 * row (6 / 8 / 10 by difficulty, as the paper's harness stops it), or the harness could not finish it.
 */
export const EPISODE_STATUSES = ['submitted', 'step-cap', 'verification-deadlock', 'agent-failed', 'errored'] as const;
export const EpisodeStatusSchema = z.enum(EPISODE_STATUSES);
export type EpisodeStatus = z.infer<typeof EpisodeStatusSchema>;

/** The model roles of a run; each has its own endpoint, model and token account. */
export const ROLES = ['agent', 'user', 'judge', 'copilot', 'operator'] as const;
export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

/**
 * Which simulated user answers: `contained` (retrieval, persona voices, containment; the default) or
 * `paper` (one prompt holding the gold instruction and the persona rules, as the paper's code does).
 */
export const USER_KINDS = ['contained', 'paper'] as const;
export type UserKind = (typeof USER_KINDS)[number];
