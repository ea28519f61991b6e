import type { ReplyPaths } from '../types.js';

/**
 * Which of the four paths a reply in the paper's protocol touches, tested the way the paper's
 * `result_analyze.py` tests it when it counts: plain substring tests for the question, verify and finish
 * openers (double quotes, exactly as its prompt writes them) and one case-insensitive pattern for code,
 * all over the whole reply, thoughts and file contents included. The parser (paper-protocol.ts) decides
 * what the reply does; these decide how the `paper` profile counts it (agent/step-tally.ts).
 */
const CODE = /<boltArtifact|<boltAction\s+type\s*=\s*["'](file|shell|start)["']/i;

export function scriptPaths(reply: string): ReplyPaths {
  return {
    ask: reply.includes('<boltAction type="ask_user"'),
    code: CODE.test(reply),
    verify: reply.includes('<boltAction type="screenshot_validated"'),
    finish: reply.includes('<boltAction type="finish"'),
  };
}
