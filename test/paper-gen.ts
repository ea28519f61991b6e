import { mulberry32, pick, type Rng } from '../stats/prng.js';
import type { LogSpec } from './paper-logs.js';
import { HARNESS } from './paper-logs.js';

/**
 * A seeded generator of logs in the paper's format, for the property test of test/paper-parity.test.ts:
 * replies drawn as any combination of the four paths (and none), in any order, with the variants the
 * paper's harness accepts and its analysis script reads differently (single-quoted openers, an empty or
 * unclosed question, code outside an artifact); every outcome its harness writes (graded, CRASHED,
 * ERROR, no evaluation record); slots of either type and any weight. A log ends where the harness ends
 * it: at a reply it reads as a finish (no question), or at the turn limit.
 *
 * Tags appear only where they act, never quoted inside a thought or a file: there this project's parser
 * deliberately reads less than the paper's (agent/builtin/paper-protocol.ts), so the episode itself differs.
 */

/** The project's seeded PRNG (stats/prng.ts): the same sequence on every machine for a seed. */
export const rng = mulberry32;

type Rand = Rng;

const PARTS = {
  ask: ['<boltAction type="ask_user">Which colours do you like?</boltAction>', '<boltAction type="ask_user"></boltAction>', "<boltAction type='ask_user'>Dark or light?</boltAction>"],
  code: [
    '<boltArtifact id="site" title="Site">\n<boltAction type="file" filePath="index.html"><h1>Hi</h1></boltAction>\n<boltAction type="shell">npm install</boltAction>\n</boltArtifact>',
    '<boltArtifact id="site" title="Site">\n<boltAction type="file" filePath="app.js">let a = 1;</boltAction>\n</boltArtifact>',
    '<boltAction type="shell">npm run dev</boltAction>',
    '<boltAction type="start">npm start</boltAction>',
  ],
  verify: ['<TestCriteria>The heading reads Hi.</TestCriteria>\n<boltAction type="screenshot_validated">/</boltAction>', '<boltAction type="screenshot_validated">/about</boltAction>'],
  finish: ['<boltAction type="finish"></boltAction>', "<boltAction type='finish'>"],
  other: ['<think>The request leaves the layout open.</think>', 'I will take care of that now.'],
} as const;

/** One reply: each path present or not, in a random order, with some prose or a thought around them. */
export function drawReply(r: Rand): string {
  const parts: string[] = [];
  for (const path of ['ask', 'code', 'verify', 'finish'] as const) if (r() < 0.3) parts.push(pick(r, PARTS[path]));
  if (r() < 0.5) parts.push(pick(r, PARTS.other));
  for (let i = parts.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [parts[i], parts[j]] = [parts[j]!, parts[i]!];
  }
  // An unclosed question runs to the end of the reply, as the harness reads it.
  if (r() < 0.05) parts.push('<boltAction type="ask_user">Anything else');
  return parts.join('\n');
}

const PERSONAS = ['P-MIN', 'P-RAM', 'P-INT', 'P-CON'] as const;
const OUTCOMES = ['graded', 'graded', 'graded', 'graded', 'graded', 'graded', 'crashed', 'error', 'none'] as const;

export function drawLog(r: Rand, index: number): LogSpec {
  const replies: string[] = [];
  const limit = Math.floor(r() * 10);
  let stopReason: LogSpec['stopReason'] = pick(r, ['max_turns_reached', 'verification_deadlock'] as const);
  for (let i = 0; i < limit; i++) {
    const reply = drawReply(r);
    replies.push(reply);
    if (HARNESS.finish.test(reply) && !HARNESS.ask.test(reply)) {
      stopReason = 'submitted';
      break;
    }
  }
  const slots = Array.from({ length: 1 + Math.floor(r() * 5) }, () => {
    const unmentioned = r() < 0.1;
    return {
      type: r() < 0.25 ? ('NEGATIVE' as const) : ('POSITIVE' as const),
      weight: Math.round((0.5 + r() * 4.5) * 1000) / 1000,
      passed: !unmentioned && r() < 0.55,
      ...(unmentioned ? { unmentioned } : {}),
    };
  });
  return { taskId: `${index}_${pick(r, PERSONAS)}`, replies, stopReason, slots, outcome: pick(r, OUTCOMES) };
}
