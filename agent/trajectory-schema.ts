import { z } from 'zod';
import { EpisodeStatusSchema } from '../protocol/enums.js';
import { ScriptCountsSchema } from '../protocol/annotations.js';
import { TokenPairSchema } from '../protocol/verdict.js';
import { DeadlockSchema, StepExtrasSchema, type Trajectory } from './trajectory.js';

const usage = z.object({ promptTokens: z.number(), completionTokens: z.number(), unknown: z.boolean().optional() });

/**
 * What a trajectory.json read back from the run folder must hold before the harness trusts it. Fields the
 * reporter and judges read are checked; fields a newer harness adds are kept (loose objects), so an old run
 * folder still reads and a new one is not stripped.
 */
export const TrajectorySchema = z.looseObject({
  schemaVersion: z.literal(1),
  caseId: z.string(),
  persona: z.string(),
  difficulty: z.string(),
  agent: z.looseObject({ name: z.string(), config: z.record(z.string(), z.unknown()) }),
  caseHash: z.string(),
  runId: z.string().optional(),
  stepCap: z.number(),
  status: EpisodeStatusSchema,
  error: z.string().optional(),
  startedAt: z.string(),
  durationMs: z.number(),
  steps: z.array(
    z.looseObject({
      index: z.number(),
      action: z.string(),
      args: z.record(z.string(), z.unknown()),
      observation: z.string(),
      latencyMs: z.number(),
      userTurn: z.looseObject({ question: z.string(), answer: z.string(), retrievedSlotIds: z.array(z.string()), tokens: TokenPairSchema }).optional(),
      ...StepExtrasSchema.shape,
    }),
  ),
  counts: z.object({ clarify: z.number(), implement: z.number(), verify: z.number(), submit: z.number(), invalid: z.number() }),
  questionBeforeCode: z.boolean(),
  linesOfCode: z.number(),
  locPaper: z.number().optional(),
  codeAlongside: z.number().optional(),
  scriptCounts: ScriptCountsSchema.optional(),
  files: z.array(z.string()),
  tokens: usage,
  copilotTokens: usage.optional(),
  tokensSelfReported: z.boolean().optional(),
  sandbox: z.string().optional(),
  deadlock: DeadlockSchema.optional(),
});

/** Parses a trajectory file's text; the error names the file and the first field that does not fit. */
export function parseTrajectory(text: string, file: string): { ok: true; trajectory: Trajectory } | { ok: false; error: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `${file}: not valid JSON (${(e as Error).message})` };
  }
  const parsed = TrajectorySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    // Name the step as a reader counts them, then the field inside it.
    const [top, index, ...rest] = issue.path;
    const where = top === 'steps' && typeof index === 'number' ? `step ${index}: field ${rest.join('.')}` : `field ${issue.path.join('.') || '(root)'}`;
    return { ok: false, error: `${file}: ${where}: ${issue.message}` };
  }
  // The schema checked what the harness reads; the rest of the record is the trajectory as it was written.
  return { ok: true, trajectory: raw as Trajectory };
}

/** The same check for a caller that wants an exception (tests, tools reading one run folder). */
export function checkTrajectory(raw: unknown, file: string): Trajectory {
  const r = parseTrajectory(JSON.stringify(raw), file);
  if (!r.ok) throw new Error(r.error);
  return r.trajectory;
}
