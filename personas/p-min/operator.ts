import { z } from 'zod';
import type { Task } from '../../slots/schema.js';
import { operatorData } from '../definitions.js';
import { mulberry32, pick } from '../../stats/prng.js';
import type { DegradedInstruction } from '../types.js';
import { fill } from '../operator-text.js';

/** P-MIN (Quantity): only the kind of site survives; every slot is omitted. */
const Data = z.object({ templates: z.array(z.string().includes('{app}')).min(1) });

const KIND = /(website|site|app|application|page|platform|portal|dashboard|store|shop|blog|tool|tracker|planner|gallery)$/i;

/** The app type: the title when it reads like one, else the noun phrase the gold instruction opens with. */
export function appType(task: Task): string {
  const title = task.title.trim();
  const looksLikeId = /^[\w-]+$/.test(title) && /[\d_-]/.test(title);
  if (title && !looksLikeId) {
    // Lower-case only a title that is all capitalised words ("Bakery Landing Page"), so names keep their case.
    const t = /^([A-Z][\w'&.-]*\s*)+$/.test(title) && !/&|\./.test(title) ? title.toLowerCase() : title;
    return KIND.test(t) ? t : `${t} website`;
  }
  const m = /\b(?:an?|the)\s+((?:[\w-]+\s){0,4}?(?:website|site|web app|app|application|page|platform|portal|dashboard|store|shop|blog))\b/i.exec(
    task.goldInstruction,
  );
  return m ? m[1]!.toLowerCase() : 'website';
}

export function pMin(task: Task, seed: number): DegradedInstruction {
  const data = operatorData('P-MIN', Data);
  const rng = mulberry32(seed);
  return {
    instruction: fill(pick(rng, data.templates), { app: appType(task) }).replace(/\ba ([aeiouAEIOU])/g, 'an $1'),
    omits: task.slots.map((s) => s.id),
    blurs: [],
    contradicts: [],
  };
}
