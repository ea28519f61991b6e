import type { Profile } from '../config/profiles.js';
import type { EpisodeAnnotation, ScriptCounts } from '../protocol/annotations.js';

/**
 * The behaviour figures of one case (questions, PCR, submit, verify and code steps, steps), read from its
 * episode under the profile's `stepCounting` rule. An episode that errored is a failed call, not a
 * behaviour: every figure here is null for it, under every profile, and the report counts it apart
 * (`episodes.byStatus`).
 */
export interface StepFigures {
  questions: number | null;
  questionBeforeCode: boolean | null;
  submitted: boolean | null;
  verifySteps: number | null;
  /** Code steps that did nothing else. */
  implementSteps: number | null;
  /** Code steps beside a question, verify or submit (the pooled VCI counts them twice). */
  codeAlongsideSteps: number | null;
  steps: number | null;
  blind: boolean | null;
}

const NONE: StepFigures = { questions: null, questionBeforeCode: null, submitted: null, verifySteps: null, implementSteps: null, codeAlongsideSteps: null, steps: null, blind: null };

/** The script's reading of an episode recorded before it was kept: its steps counted as what they did. */
function fromSteps(e: EpisodeAnnotation): ScriptCounts {
  const along = e.codeAlongside ?? 0;
  return {
    replies: e.steps, questions: e.counts.clarify, codeSteps: e.counts.implement + along, verifies: e.counts.verify,
    finished: e.status === 'submitted', formatErrors: e.counts.invalid, codeAlongside: along, askedBeforeCode: e.questionBeforeCode,
  };
}

export function stepFigures(episode: EpisodeAnnotation | undefined, rules: Pick<Profile, 'stepCounting'>): StepFigures {
  if (!episode || episode.status === 'errored') return NONE;
  if (rules.stepCounting === 'script') {
    const s = episode.scriptCounts ?? fromSteps(episode);
    return {
      questions: s.questions,
      questionBeforeCode: s.askedBeforeCode,
      submitted: s.finished,
      verifySteps: s.verifies,
      implementSteps: s.codeSteps - s.codeAlongside,
      codeAlongsideSteps: s.codeAlongside,
      // The script's steps: one per reply, and one more for code beside a credited path.
      steps: s.replies + s.codeAlongside,
      blind: s.questions === 0 && s.verifies === 0,
    };
  }
  const c = episode.counts;
  return {
    questions: c.clarify,
    questionBeforeCode: episode.questionBeforeCode,
    submitted: episode.status === 'submitted',
    verifySteps: c.verify,
    implementSteps: c.implement,
    codeAlongsideSteps: episode.codeAlongside ?? 0,
    steps: episode.steps,
    blind: c.clarify === 0 && c.verify === 0,
  };
}
