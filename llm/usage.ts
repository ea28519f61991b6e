import type { Role } from '../config/roles.js';

export interface TokenUsage {
  prompt: number;
  completion: number;
  /** Some call's provider sent no usage object: the counts are only what was reported, the total is unknown. */
  unknown?: boolean;
}

/** US dollars per million tokens, per model name; a model missing from the table costs nothing known. */
export type PriceTable = Record<string, { promptPerMTok: number; completionPerMTok: number }>;

export interface RoleUsage extends TokenUsage {
  calls: number;
  /** Undefined when no price is known for a model this role used: unknown is not zero. */
  costUsd?: number;
}

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return { prompt: a.prompt + b.prompt, completion: a.completion + b.completion, ...(a.unknown || b.unknown ? { unknown: true } : {}) };
}

export const NO_USAGE: TokenUsage = Object.freeze({ prompt: 0, completion: 0 });

/**
 * Totals per role. One meter can be shared by every client of a run, so the report shows what each role
 * cost without each caller summing tokens itself; failed attempts count too, because they were paid for.
 */
export class UsageMeter {
  private readonly byRole = new Map<Role, { usage: TokenUsage; calls: number; cost: number; priced: boolean }>();

  constructor(private readonly prices: PriceTable = {}) {}

  record(role: Role, model: string, usage: TokenUsage): void {
    const entry = this.byRole.get(role) ?? { usage: { ...NO_USAGE }, calls: 0, cost: 0, priced: true };
    entry.usage = addUsage(entry.usage, usage);
    entry.calls += 1;
    const price = this.prices[model];
    if (price && !usage.unknown) entry.cost += (usage.prompt * price.promptPerMTok + usage.completion * price.completionPerMTok) / 1e6;
    else entry.priced = false;
    this.byRole.set(role, entry);
  }

  get(role: Role): RoleUsage {
    const e = this.byRole.get(role);
    if (!e) return { prompt: 0, completion: 0, calls: 0, costUsd: 0 };
    return { ...e.usage, calls: e.calls, ...(e.priced ? { costUsd: e.cost } : {}) };
  }

  totals(): Partial<Record<Role, RoleUsage>> {
    const out: Partial<Record<Role, RoleUsage>> = {};
    for (const role of this.byRole.keys()) out[role] = this.get(role);
    return out;
  }
}
