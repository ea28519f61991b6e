import { promises as fs } from 'node:fs';
import path from 'node:path';

/**
 * The paper's scoring, restated for the parity test: what `src/experiment/result_analyze.py` of
 * AIforIP/InteractWeb-Bench computes from the `interaction_history.json` logs its `run_simulation.py`
 * writes. Test-only, in this project's words, and only the figures the parity test compares (TCR, HR,
 * ask rate, average questions, PCR, submit rate, VCI, average steps, TCR per persona). Where the paper's script has a quirk it is kept,
 * because the point is to reproduce its numbers, and noted.
 */

/** One message of a paper log; the last one (a user message from the harness) carries the evaluation. */
export interface PaperTurn {
  turn: number;
  role: string;
  content: string;
  debug_info?: {
    is_final?: boolean;
    stop_reason?: string;
    evaluation_detail?: { status?: string; tcr?: number; raw_metrics?: { Details?: PaperDetail[]; [k: string]: unknown } };
    oracle_slots_used_for_grading?: PaperSlot[];
  };
}
export interface PaperDetail {
  task?: string;
  passed: boolean;
  weight?: number;
  reason?: string;
}
export interface PaperSlot {
  original_task: string;
  expected_result: string;
  target_component: string;
  assertion_type: 'POSITIVE' | 'NEGATIVE';
  c_tech: number;
  final_weight: number;
}
export interface PaperLog {
  path_distribution_stats: Record<string, number>;
  trajectory: PaperTurn[];
}

/** What the paper's script keeps of one task. */
export interface PaperRow {
  taskId: string;
  /** An evaluation record was found (the script's "normal" rows; the others score 0 and drop out of behaviour figures). */
  evaluated: boolean;
  /** POSITIVE weight passed over POSITIVE weight (the script's "clean TCR", the paper's Table 2). */
  tcr: number;
  hallucinated: 0 | 1 | null;
  asks: number;
  codeTurns: number;
  /** Turns that held code and another action: the script adds each once more to VCI's denominator. */
  codeWithOther: number;
  verifies: number;
  asksBeforeCode: number;
  submitted: boolean;
  /** The script's steps: per reply, B for code, then the credited path (or ERR when there is neither). */
  steps: number;
  /** The persona: what follows the last `_` of the task folder. */
  role: string;
}

const CODE = /<boltArtifact|<boltAction\s+type\s*=\s*["'](file|shell|start)["']/i;
const has = (content: string, type: string) => content.includes(`<boltAction type="${type}"`);

/** Counts one task's assistant turns and reads its grading, as the script does. */
export function readPaperLog(taskId: string, log: PaperLog): PaperRow {
  const role = taskId.includes('_') ? taskId.split('_').at(-1)! : 'Unknown_Role';
  const row: PaperRow = { taskId, evaluated: false, tcr: 0, hallucinated: null, asks: 0, codeTurns: 0, codeWithOther: 0, verifies: 0, asksBeforeCode: 0, submitted: false, steps: 0, role };
  let firstCodeTurn = -1;
  for (const t of log.trajectory) {
    if (t.role !== 'assistant') continue;
    const ask = has(t.content, 'ask_user');
    const verify = has(t.content, 'screenshot_validated');
    const finish = has(t.content, 'finish');
    const code = CODE.test(t.content);
    if (code) row.codeTurns++;
    if (code) row.steps++;
    // One action per turn is credited, finish first, then a question, then a verify; none and no code is ERR.
    if (finish) row.submitted = true;
    else if (ask) row.asks++;
    else if (verify) row.verifies++;
    if (finish || ask || verify || !code) row.steps++;
    if (code && (finish || ask || verify)) row.codeWithOther++;
    if (code && firstCodeTurn === -1) firstCodeTurn = t.turn;
    // The script counts any turn that holds a question, credited or not, before or after the first code.
    if (ask && (firstCodeTurn === -1 || t.turn < firstCodeTurn)) row.asksBeforeCode++;
  }
  // The grading is the last message that carries an evaluation with a tcr.
  for (const t of [...log.trajectory].reverse()) {
    const detail = t.debug_info?.evaluation_detail;
    if (!detail || detail.tcr === undefined) continue;
    row.evaluated = true;
    const reported = Number(detail.tcr);
    const metrics = detail.raw_metrics;
    const slots = t.debug_info!.oracle_slots_used_for_grading ?? [];
    if (metrics && Object.keys(metrics).length > 0 && slots.length > 0) {
      const details = metrics.Details ?? [];
      let positive = 0;
      let passedPositive = 0;
      let hallucinated = false;
      slots.forEach((slot, i) => {
        // A slot without a detail entry (a crashed site's empty list) counts as not passed.
        const passed = details.length > 0 && i < details.length ? details[i]!.passed === true : false;
        const weight = slot.final_weight ?? 1;
        if (slot.assertion_type.toUpperCase() === 'NEGATIVE') {
          if (!passed) hallucinated = true;
        } else {
          positive += weight;
          if (passed) passedPositive += weight;
        }
      });
      row.tcr = positive > 0 ? passedPositive / positive : reported;
      row.hallucinated = hallucinated ? 1 : 0;
    }
    break;
  }
  return row;
}

/** The script's walk: every JSON file under the root, the task named by its first folder. */
export async function readPaperLogs(root: string): Promise<PaperRow[]> {
  const rows: PaperRow[] = [];
  for (const rel of (await fs.readdir(root, { recursive: true })).sort()) {
    if (!rel.endsWith('.json')) continue;
    const log = JSON.parse(await fs.readFile(path.join(root, rel), 'utf8')) as PaperLog;
    rows.push(readPaperLog(rel.split(path.sep)[0]!, log));
  }
  return rows;
}

/**
 * Null where the script prints its placeholder 0.0 for an empty set (no task, no graded task, no
 * evaluated task, no code step): this project reports such a figure as not defined.
 */
export interface PaperFigures {
  tcr: number | null;
  hr: number | null;
  askRate: number | null;
  avgQuestions: number | null;
  pcr: number | null;
  submitRate: number | null;
  vci: number | null;
  steps: number | null;
  /** Table 2's per-persona clean TCR, every task of the persona. */
  tcrByRole: Record<string, number | null>;
}

const meanOf = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

/**
 * The headline figures as the script prints them (Tables 2-4). TCR averages every task, an unevaluated
 * one as 0; HR averages the tasks with a grading; the behaviour figures average the evaluated tasks; VCI
 * is pooled: all verifies over all code turns, a code turn that also did something else counted twice.
 */
export function paperFigures(rows: readonly PaperRow[]): PaperFigures {
  const evaluated = rows.filter((r) => r.evaluated);
  const graded = rows.filter((r) => r.hallucinated !== null).map((r) => r.hallucinated!);
  const codeSteps = evaluated.reduce((a, r) => a + r.codeTurns + r.codeWithOther, 0);
  const roles = [...new Set(rows.map((r) => r.role))];
  return {
    tcr: meanOf(rows.map((r) => r.tcr)),
    hr: meanOf(graded),
    askRate: meanOf(evaluated.map((r) => (r.asks > 0 ? 1 : 0))),
    avgQuestions: meanOf(evaluated.map((r) => r.asks)),
    pcr: meanOf(evaluated.map((r) => (r.asksBeforeCode > 0 ? 1 : 0))),
    submitRate: meanOf(evaluated.map((r) => (r.submitted ? 1 : 0))),
    vci: codeSteps > 0 ? evaluated.reduce((a, r) => a + r.verifies, 0) / codeSteps : null,
    steps: meanOf(evaluated.map((r) => r.steps)),
    tcrByRole: Object.fromEntries(roles.map((role) => [role, meanOf(rows.filter((r) => r.role === role).map((r) => r.tcr))])),
  };
}
