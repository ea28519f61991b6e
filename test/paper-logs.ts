import { parsePaperReply } from '../agent/builtin/paper-protocol.js';
import { newTally, tallyDecision } from '../agent/step-tally.js';
import type { EpisodeStatus } from '../protocol/enums.js';
import { EpisodeAnnotationSchema } from '../protocol/annotations.js';
import { episodeAnnotation, type EpisodeRecord } from '../protocol/build.js';
import type { SlotRecord } from '../reporters/metrics.js';
import { PersonaSchema } from '../protocol/enums.js';
import type { PaperDetail, PaperLog, PaperSlot, PaperTurn } from './paper-analyze.js';

/**
 * Hand-made logs in the paper's format (`interaction_history.json` as its run_simulation.py writes it),
 * and their conversion into this project's slot records the way a run under the paper profile would
 * produce them: each assistant reply read by this project's paper-protocol parser and counted by the
 * episode loop's own tally, each graded slot a verdict, a crashed site every slot failed by the crash rule.
 */

export const reply = {
  ask: (q: string) => `<think>The request leaves this open.</think>\n<boltAction type="ask_user">${q}</boltAction>`,
  code: (file = 'index.html', body = '<!doctype html><title>t</title>\n<h1>Hi</h1>') =>
    `I will build the page.\n<boltArtifact id="site" title="Site">\n<boltAction type="file" filePath="${file}">${body}</boltAction>\n<boltAction type="shell">npm install</boltAction>\n</boltArtifact>`,
  verify: (criteria = 'The heading reads Hi.') => `<TestCriteria>${criteria}</TestCriteria>\n<boltAction type="screenshot_validated">/</boltAction>`,
  finish: () => '<think>Everything is in place.</think>\n<boltAction type="finish"></boltAction>',
  /** A reply that takes no path: the paper's format error, this project's invalid step. */
  prose: () => 'Let me think about how the page should look before writing it.',
};

export interface LogSpec {
  /** `<task>_<persona>`, as the paper names a task's log folder. */
  taskId: string;
  replies: string[];
  stopReason: 'submitted' | 'max_turns_reached' | 'verification_deadlock';
  slots: Array<{ type: 'POSITIVE' | 'NEGATIVE'; weight: number; passed: boolean; unmentioned?: boolean }>;
  /**
   * How the paper's harness ended the log (default `graded`): `crashed`, the site would not start (CRASHED,
   * no details); `error`, its evaluator threw (ERROR, no details); `none`, the run died before any
   * evaluation record was written.
   */
  outcome?: 'graded' | 'crashed' | 'error' | 'none';
}

const UNMENTIONED = 'Not observed or tested during exploration';

/** How the paper's harness (webgen_agent.py step) picks a reply's path: a question first, then a finish, anywhere in the reply. */
export const HARNESS = {
  ask: /<boltAction\s+type\s*=\s*["']ask_user["'].*?>/is,
  finish: /<boltAction\s+type\s*=\s*["']finish["'].*?>/is,
};

/** A log as the paper's harness writes it: system prompt, instruction, the replies with their answers or observations, then the grading. */
export function paperLog(spec: LogSpec): PaperLog {
  const outcome = spec.outcome ?? 'graded';
  const turns: Array<Omit<PaperTurn, 'turn'>> = [
    { role: 'system', content: 'You are a web developer.' },
    { role: 'user', content: 'Make me a page.' },
  ];
  for (const r of spec.replies) {
    turns.push({ role: 'assistant', content: r });
    if (HARNESS.ask.test(r)) turns.push({ role: 'user', content: 'Lavender, please.' });
    else if (!HARNESS.finish.test(r)) turns.push({ role: 'user', content: 'Observation: done.' });
  }
  if (outcome === 'none') return { path_distribution_stats: {}, trajectory: turns.map((t, turn) => ({ turn, ...t })) };
  const oracle = oracleOf(spec);
  const details: PaperDetail[] = outcome !== 'graded'
    ? []
    : spec.slots.map((s, i) => ({ task: `check ${i}`, passed: s.passed, weight: s.weight, reason: s.unmentioned ? UNMENTIONED : s.passed ? '[Verified] seen' : '[Failed] not seen' }));
  const total = spec.slots.reduce((a, s) => a + s.weight, 0);
  const passed = spec.slots.filter((s) => s.passed && outcome === 'graded').reduce((a, s) => a + s.weight, 0);
  turns.push({
    role: 'user',
    content: `[SYSTEM]: Task Stopped (${spec.stopReason}).`,
    debug_info: {
      is_final: true,
      stop_reason: spec.stopReason,
      evaluation_detail: outcome !== 'graded'
        ? { status: outcome === 'crashed' ? 'CRASHED' : 'ERROR', tcr: 0, raw_metrics: { Total_Weight: 0, Details: [] } }
        : { status: details.every((d) => d.passed) ? 'PASS' : 'FAIL', tcr: total > 0 ? Math.round((passed / total) * 1e4) / 1e4 : 0, raw_metrics: { Details: details } },
      oracle_slots_used_for_grading: oracle,
    },
  });
  return { path_distribution_stats: {}, trajectory: turns.map((t, turn) => ({ turn, ...t })) };
}

const STOPPED: Record<LogSpec['stopReason'], EpisodeStatus> = { submitted: 'submitted', max_turns_reached: 'step-cap', verification_deadlock: 'verification-deadlock' };

/** The case's slots as the paper's dataset gives them to its evaluator. */
function oracleOf(spec: LogSpec): PaperSlot[] {
  return spec.slots.map((s, i) => ({
    original_task: `check ${i}`, expected_result: `result ${i}`, target_component: `C${i}`, assertion_type: s.type, c_tech: s.weight, final_weight: s.weight,
  }));
}

/**
 * The slot records a run under the paper profile would report for the task the log describes (its slots
 * come from the dataset, as a run's do, since a log the run died on holds none).
 */
export function recordsOf(spec: LogSpec, log: PaperLog = paperLog(spec)): SlotRecord[] {
  const taskId = spec.taskId;
  const tally = newTally();
  const steps: EpisodeRecord['steps'][number][] = [];
  let submitted = false;
  for (const t of log.trajectory) {
    if (t.role !== 'assistant' || submitted) continue;
    const parsed = parsePaperReply(t.content);
    const decision = { ...parsed.decision, writes: parsed.writes, paths: parsed.paths };
    tallyDecision(tally, decision);
    const action = 'action' in decision ? decision.action : undefined;
    steps.push({
      action: action?.type ?? 'invalid',
      args: action?.type === 'clarify' ? { question: action.question } : {},
      ...(parsed.reasoning ? { reasoning: parsed.reasoning } : {}),
    });
    // The episode loop stops at a submit.
    if (action?.type === 'submit') submitted = true;
  }
  const final = [...log.trajectory].reverse().find((t) => t.debug_info?.evaluation_detail?.tcr !== undefined)?.debug_info;
  // No evaluation record: the run died, which is an errored episode here, every slot errored with it.
  const status: EpisodeStatus = !final ? 'errored' : submitted ? 'submitted' : STOPPED[final.stop_reason as LogSpec['stopReason']];
  const trajectory: EpisodeRecord = {
    status,
    steps,
    stepCap: 20,
    counts: tally.counts,
    questionBeforeCode: tally.questionBeforeCode,
    codeAlongside: tally.codeAlongside,
    scriptCounts: tally.script,
    linesOfCode: 0,
    tokens: { promptTokens: 0, completionTokens: 0 },
    durationMs: 0,
  };
  const episode = EpisodeAnnotationSchema.parse(JSON.parse(episodeAnnotation(trajectory, { agent: 'paper-agent', cached: false, degraded: null, usage: [] }).description));
  const [task, personaName] = taskId.split('_');
  const persona = PersonaSchema.parse(personaName);
  const state = final?.evaluation_detail?.status;
  const crashed = state === 'CRASHED';
  const details = final?.evaluation_detail?.raw_metrics?.Details ?? [];
  return oracleOf(spec).map((slot, i) => {
    const d = details[i];
    // The crash rule fails every slot before any judge runs; an evaluator that threw (or never ran) leaves every
    // slot errored; otherwise the judge's verdict, and a slot it never mentioned is failed (paper profile).
    const errored = !final || state === 'ERROR';
    const unmentioned = !crashed && !errored && d?.reason === UNMENTIONED;
    return {
      caseId: taskId, taskId: task!, persona, difficulty: 'middle', slotId: `s${i}`, targetComponent: slot.target_component,
      assertionType: slot.assertion_type, weight: slot.final_weight, cTech: slot.c_tech,
      status: errored ? 'errored' : !crashed && d?.passed ? 'pass' : 'fail',
      evidence: crashed ? 'crashed on load: the site would not start' : errored ? 'the judge errored' : (d?.reason ?? ''),
      episode,
      ...(unmentioned ? { unmentioned: true } : {}),
    } satisfies SlotRecord;
  });
}
