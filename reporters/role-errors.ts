import type { SlotRecord } from './metrics.js';

/**
 * Model calls that failed in a way that changes what is measured, counted per role: a simulated-user turn
 * that could not be answered (the agent got a non-answer), a judge reply that never validated (the slot is
 * errored), an intent judgement that failed (IAS and LLM CHR missing), an agent or copilot call that ended
 * the episode. A figure that rests on such calls is not a clean measurement, and the report says so.
 */
export const ERROR_ROLES = ['user', 'judge', 'agent', 'copilot'] as const;
export type ErrorRole = (typeof ERROR_ROLES)[number];

export interface RoleErrorCount {
  count: number;
  /** The first few distinct messages, for a reader to see what went wrong. */
  messages: string[];
  /** What the errors touch, for the summary's warning. */
  affects: string;
}

export type RoleErrors = Partial<Record<ErrorRole, RoleErrorCount>>;

const AFFECTS: Record<ErrorRole, string> = {
  user: 'clarification answers (CHR, and every figure of the cases that asked)',
  judge: 'slot verdicts (TCR, HR, SR) and the intent judgement (IAS, LLM CHR)',
  agent: 'the episodes they ended',
  copilot: 'the screenshot descriptions the agent read',
};
const MAX_MESSAGES = 3;

export function roleErrors(records: readonly SlotRecord[]): RoleErrors {
  const out: RoleErrors = {};
  const add = (role: ErrorRole, message: string) => {
    const e = (out[role] ??= { count: 0, messages: [], affects: AFFECTS[role] });
    e.count += 1;
    const short = message.slice(0, 300);
    if (e.messages.length < MAX_MESSAGES && !e.messages.includes(short)) e.messages.push(short);
  };
  const seenEpisodes = new Set<string>();
  for (const r of records) {
    if (r.status === 'errored' && r.judge?.startsWith('llm-som') && !r.cachedVerdict) add('judge', r.evidence);
    const ep = r.episode;
    const key = `${ep?.agent ?? ''}\0${r.caseId}\0${r.trial ?? 0}`;
    if (!ep || seenEpisodes.has(key)) continue;
    seenEpisodes.add(key);
    for (const e of ep.roleErrors) add(e.role, e.message);
    if (ep.intent?.error) add('judge', `intent judgement: ${ep.intent.error}`);
  }
  return out;
}

/** One line per role for the terminal and report.md; empty when every model call worked. */
export function describeRoleErrors(e: RoleErrors): string[] {
  return ERROR_ROLES.filter((r) => e[r]).map((r) => {
    const x = e[r]!;
    return `${r}: ${x.count} failed model call(s) affecting ${x.affects}; first: ${x.messages[0] ?? ''}`;
  });
}
