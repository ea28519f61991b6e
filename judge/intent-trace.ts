import type { TrajectoryStep } from '../agent/trajectory.js';

/** How much of a trajectory the intent judge reads; exported so the prompt can state them and tests can check them. */
export const TRACE_LIMITS = {
  /** One step's reasoning; longer text keeps its start (the plan) and its end (the decision). */
  reasoningPerStep: 2000,
  question: 600,
  answer: 600,
  /** The whole trace. */
  total: 24000,
} as const;

export interface Trace {
  text: string;
  /** Steps whose reasoning was cut to `reasoningPerStep`. */
  stepsCut: number;
  /** Steps whose reasoning was left out entirely to keep the trace within `total`. */
  stepsLeftOut: number;
  /** The trace still overflowed with every reasoning left out (a flood of questions): its middle was cut. */
  middleCut: boolean;
}

interface Block {
  step: number;
  full: string;
  /** The step without its reasoning: its question and answer, which the slot-hit judgement needs; null when it asked nothing. */
  compact: string | null;
  hasReasoning: boolean;
  cut: boolean;
}

/**
 * The agent's own words, step by step, as the intent judge reads them: each step's reasoning, and for a
 * question its text and the answer it got. Steps with neither (pure code) add nothing, as in the paper,
 * whose reader keeps a reply's reasoning and drops its code. The paper sends everything; here the trace is
 * bounded, so a step-cap run of long replies cannot blow the judge's context. When it must shrink, the
 * first and last steps keep their reasoning (how the agent read the request, what it ended up believing)
 * and the steps in between keep only their questions, so every question stays in view for the slot hits.
 */
export function renderTrace(steps: readonly TrajectoryStep[], limits: typeof TRACE_LIMITS = TRACE_LIMITS): Trace {
  let questionNo = 0;
  const blocks: Block[] = [];
  for (const s of steps) {
    const reasoning = (s.reasoning ?? '').trim();
    const asked = s.action === 'clarify' ? (s.userTurn?.question ?? (typeof s.args.question === 'string' ? s.args.question : '')).trim() : '';
    if (!reasoning && !asked) continue;
    const head = `Step ${s.index + 1} (${s.action})`;
    const qa = asked ? [`Question ${++questionNo}: ${cutMiddle(asked, limits.question)}`, ...(s.userTurn ? [`Answer ${questionNo}: ${cutMiddle(s.userTurn.answer.trim(), limits.answer)}`] : [])] : [];
    const shown = cutMiddle(reasoning, limits.reasoningPerStep);
    blocks.push({
      step: s.index + 1,
      full: [head, ...(reasoning ? [`Reasoning: ${shown}`] : []), ...qa].join('\n'),
      compact: asked ? [reasoning ? `${head}, reasoning left out to fit the limit` : head, ...qa].join('\n') : null,
      hasReasoning: reasoning !== '',
      cut: shown !== reasoning,
    });
  }
  const all = blocks.map(() => true);
  const whole = render(blocks, all);
  if (whole.length <= limits.total) return { text: whole, stepsCut: blocks.filter((b) => b.cut).length, stepsLeftOut: 0, middleCut: false };

  // Start from every step compact, then give reasoning back from both ends inwards while it fits.
  const full = blocks.map(() => false);
  for (let lo = 0, hi = blocks.length - 1, fromStart = true; lo <= hi; fromStart = !fromStart) {
    const i = fromStart ? lo : hi;
    full[i] = true;
    if (render(blocks, full).length > limits.total) {
      full[i] = false;
      break;
    }
    if (fromStart) lo++;
    else hi--;
  }
  const text = render(blocks, full);
  return {
    text: cutMiddle(text, limits.total),
    stepsCut: blocks.filter((b, i) => b.cut && full[i]).length,
    stepsLeftOut: blocks.filter((b, i) => b.hasReasoning && !full[i]).length,
    middleCut: text.length > limits.total,
  };
}

/** The chosen form of each step; a run of steps that lost their reasoning and asked nothing is one line. */
function render(blocks: Block[], full: boolean[]): string {
  const parts: string[] = [];
  let run: number[] = [];
  const flush = () => {
    if (run.length === 1) parts.push(`Step ${run[0]}: reasoning left out to fit the limit`);
    else if (run.length > 1) parts.push(`Steps ${run[0]}-${run[run.length - 1]}: reasoning of ${run.length} steps left out to fit the limit`);
    run = [];
  };
  blocks.forEach((b, i) => {
    const shown = full[i] ? b.full : b.compact;
    if (shown === null) {
      run.push(b.step);
      return;
    }
    flush();
    parts.push(shown);
  });
  flush();
  return parts.join(SEP);
}

const SEP = '\n---\n';

/** Text within `max` characters: its start and its end, with a mark saying how much of the middle went. */
export function cutMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const mark = (n: number) => `\n[... ${n} characters left out ...]\n`;
  const keep = Math.max(0, max - mark(text.length).length);
  const head = Math.ceil(keep * 0.6);
  const tail = keep - head;
  return `${text.slice(0, head)}${mark(text.length - keep)}${tail > 0 ? text.slice(text.length - tail) : ''}`;
}
