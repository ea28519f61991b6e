import { z } from 'zod';
import type { ToolCall, ToolSpec } from '../../llm/types.js';
import { ActionSchema, type Action } from '../actions.js';

/**
 * The action space as function-calling tools. The JSON schemas tell the model what to send; the
 * arguments that come back are still checked against ActionSchema, because models do send
 * arguments that break the schema they were given.
 */
export const AGENT_TOOLS: ToolSpec[] = [
  {
    name: 'clarify',
    description: 'Ask the client one clarifying question in plain words. Their answer is returned.',
    parameters: {
      type: 'object',
      properties: { question: { type: 'string', description: 'One short question for a non-technical client.' } },
      required: ['question'],
      additionalProperties: false,
    },
  },
  {
    name: 'implement',
    description:
      'Write files (complete contents, paths relative to the site folder) and delete files. ' +
      'Returns what was written and errors from the browser or from starting the project.',
    parameters: {
      type: 'object',
      properties: {
        files: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              path: { type: 'string', description: 'For example "index.html" or "js/app.js".' },
              content: { type: 'string', description: 'The whole file.' },
            },
            required: ['path', 'content'],
            additionalProperties: false,
          },
        },
        deletes: { type: 'array', items: { type: 'string' }, description: 'Paths to delete.' },
      },
      required: ['files'],
      additionalProperties: false,
    },
  },
  {
    name: 'verify',
    description:
      'Open a page of the site in a browser; returns a screenshot, the title and console errors. With criteria, a visual ' +
      'copilot carries them out on the page (clicking, typing, scrolling) and reports which hold, with the last frame.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'URL path to open, "/" for the home page.' },
        criteria: { type: 'string', description: 'Optional test criteria, one check per line, e.g. "1. Clicking Add adds an item to the list."' },
      },
      additionalProperties: false,
    },
  },
  {
    name: 'submit',
    description: 'Hand the finished site over to the client. Ends the work.',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
  },
];

const TOOL_NAMES = new Set(AGENT_TOOLS.map((t) => t.name));

export type ToolParse = { action: Action } | { invalid: string };

/** One reply's tool calls to one action; anything else is an invalid step with the reason the model will read. */
export function actionFromToolCalls(calls: ToolCall[]): ToolParse {
  if (calls.length === 0) {
    return { invalid: 'your reply called no tool; call exactly one of clarify, implement, verify or submit' };
  }
  if (calls.length > 1) {
    return { invalid: `your reply called ${calls.length} tools (${calls.map((c) => c.name).join(', ')}); call exactly one per reply. None was run.` };
  }
  const call = calls[0]!;
  if (!TOOL_NAMES.has(call.name)) {
    return { invalid: `there is no tool named "${call.name}"; use clarify, implement, verify or submit` };
  }
  let args: unknown;
  try {
    args = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
  } catch (e) {
    return { invalid: `the arguments of ${call.name} are not valid JSON (${(e as Error).message}); send a JSON object` };
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return { invalid: `the arguments of ${call.name} must be a JSON object` };
  }
  // Models in strict JSON mode send null for an argument they leave out; that means "not given".
  const given = Object.fromEntries(Object.entries(args).filter(([, v]) => v !== null));
  const parsed = ActionSchema.safeParse({ ...given, type: call.name });
  if (!parsed.success) {
    return { invalid: `the arguments of ${call.name} do not match its schema: ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}` };
  }
  return { action: parsed.data };
}
