import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { PriceTable } from './usage.js';

/**
 * Prices are the user's to give (IWB_PRICES): models and rates change faster than any table we could
 * ship, and a made-up price is worse than an unknown one. The value is inline JSON or a path to a JSON
 * file: `{"<model>": {"promptPerMTok": 2.5, "completionPerMTok": 10}}`, US dollars per million tokens.
 */
const PriceTableSchema = z.record(
  z.string().min(1),
  z.object({ promptPerMTok: z.number().nonnegative(), completionPerMTok: z.number().nonnegative() }).strict(),
);

export function loadPriceTable(spec: string | undefined, variable = 'IWB_PRICES'): PriceTable {
  if (!spec) return {};
  const inline = spec.trim().startsWith('{');
  const where = inline ? `environment variable ${variable}` : `${spec} (from ${variable})`;
  let raw: unknown;
  try {
    raw = JSON.parse(inline ? spec : readFileSync(spec, 'utf8'));
  } catch (e) {
    throw new Error(`${where}: cannot read the price table as JSON (${(e as Error).message})`, { cause: e });
  }
  const parsed = PriceTableSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${where}: field ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return parsed.data;
}

/** What one model's tokens cost in US dollars; null when the table has no price for that model. */
export function costOf(model: string, tokens: { prompt: number; completion: number }, prices: PriceTable): number | null {
  const p = prices[model];
  return p ? (tokens.prompt * p.promptPerMTok + tokens.completion * p.completionPerMTok) / 1e6 : null;
}
