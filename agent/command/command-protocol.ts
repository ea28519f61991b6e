import { z } from 'zod';
import { ActionSchema, type Action, type Observation, type StepUsage } from '../actions.js';

/**
 * The bring-your-own-agent protocol (IWB_AGENT=command:<command line>), JSON Lines over the program's
 * stdin and stdout; examples/README.md explains it with an example.
 *
 * Harness -> agent, one object per line: first `start`, then one observation per action taken.
 * Before a run's first test the harness starts the program once more, on its own, and sends only
 * `hello` (stepsLeft 0), so a program that cannot start stops the run instead of erroring every case; any
 * one line back counts (an older program answers it as any message, with an action), a `hello` back
 * may name the agent. That process is then closed; episodes never see `hello`.
 * Agent -> harness, one object per line: exactly one action (ActionSchema) in answer to each message,
 * optionally with `usage` (tokens the agent's own model spent) and `note` (kept in the trajectory).
 * Blank lines are skipped; anything on stdout that is not one valid action costs the step and comes
 * back as an `error` message. Logs belong on stderr, which the harness keeps for crash reports.
 */

export const PROTOCOL_VERSION = 1;

const stepsLeft = z.number().int().min(0);

export const HarnessMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello'), protocol: z.literal(PROTOCOL_VERSION), stepsLeft: z.literal(0) }),
  z.object({ type: z.literal('start'), protocol: z.literal(PROTOCOL_VERSION), instruction: z.string(), stepsLeft }),
  z.object({ type: z.literal('answer'), question: z.string(), answer: z.string(), stepsLeft }),
  z.object({
    type: z.literal('implemented'),
    written: z.array(z.string()),
    deleted: z.array(z.string()),
    errors: z.array(z.string()),
    siteErrors: z.array(z.string()),
    consoleErrors: z.array(z.string()),
    stepsLeft,
  }),
  z.object({
    type: z.literal('verified'),
    path: z.string(),
    title: z.string(),
    consoleErrors: z.array(z.string()),
    siteErrors: z.array(z.string()),
    /** The PNG both inline and on disk, so an agent may use whichever its model client prefers. */
    screenshot: z.object({ mediaType: z.literal('image/png'), base64: z.string(), file: z.string() }),
    /** Present when the verify carried `criteria` and was audited; the screenshot is then the audit's last frame. */
    audit: z.object({ passed: z.boolean(), report: z.string(), failedInARow: z.number().int(), failureLimit: z.number().int() }).optional(),
    stepsLeft,
  }),
  z.object({ type: z.literal('error'), message: z.string(), stepsLeft }),
]);
export type HarnessMessage = z.infer<typeof HarnessMessageSchema>;

export const HELLO_MESSAGE: HarnessMessage = { type: 'hello', protocol: PROTOCOL_VERSION, stepsLeft: 0 };

/** The answer a program may give to `hello`; optional, any one line will do. */
export const AgentHelloSchema = z.object({ type: z.literal('hello'), name: z.string().optional(), version: z.string().optional() });

/** More than any model's context and output per step: a larger claim is a broken or lying agent. */
export const MAX_SELF_REPORTED_TOKENS = 10_000_000;

export const AgentUsageSchema = z.object({
  promptTokens: z.number().int().min(0).max(MAX_SELF_REPORTED_TOKENS),
  completionTokens: z.number().int().min(0).max(MAX_SELF_REPORTED_TOKENS),
});

/** The extras an agent may put next to its action; kept apart because ActionSchema's objects are strict. */
const ExtrasSchema = z.object({ usage: AgentUsageSchema.optional(), note: z.string().optional() });

export function toHarnessMessage(o: Observation): HarnessMessage {
  switch (o.type) {
    case 'start':
      return { type: 'start', protocol: PROTOCOL_VERSION, instruction: o.instruction, stepsLeft: o.stepsLeft };
    case 'answer':
    case 'error':
      return o;
    case 'implemented':
      return o;
    case 'verified':
      return {
        type: 'verified',
        path: o.path,
        title: o.title,
        consoleErrors: o.consoleErrors,
        siteErrors: o.siteErrors,
        screenshot: { mediaType: 'image/png', base64: o.screenshotPng.toString('base64'), file: o.screenshotPath },
        ...(o.audit ? { audit: o.audit } : {}),
        stepsLeft: o.stepsLeft,
      };
  }
}

export type AgentLine = { action: Action; usage?: StepUsage; note?: string } | { invalid: string; note?: string };

/** One line from the agent as a decision; a line that is not a valid action is an invalid step, not a crash. */
export function parseAgentLine(line: string): AgentLine {
  const shown = line.length > 300 ? `${line.slice(0, 300)}…` : line;
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (e) {
    return { invalid: `the line is not JSON (${(e as Error).message}): ${shown}`, note: shown };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { invalid: `the line must be one JSON object with a "type": ${shown}`, note: shown };
  }
  const { usage, note, ...rest } = json as Record<string, unknown>;
  const extras = ExtrasSchema.safeParse({ usage, note });
  if (!extras.success) return { invalid: `"usage" or "note" is malformed: ${z.prettifyError(extras.error).replace(/\n/g, '; ')}` };
  const action = ActionSchema.safeParse(rest);
  if (!action.success) return { invalid: `not a valid action: ${z.prettifyError(action.error).replace(/\n/g, '; ')}`, note: shown };
  return {
    action: action.data,
    ...(extras.data.usage ? { usage: extras.data.usage } : {}),
    ...(extras.data.note !== undefined ? { note: extras.data.note } : {}),
  };
}
