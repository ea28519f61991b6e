import { z } from 'zod';
import { ActionSchema } from '../actions.js';
import { AgentHelloSchema, AgentUsageSchema, HarnessMessageSchema, PROTOCOL_VERSION } from './command-protocol.js';

/**
 * The command protocol as JSON Schema, generated from the zod schemas the harness validates with, so an
 * agent in any language can validate its lines (and generate types) against exactly what is enforced.
 * examples/command-protocol.schema.json is this, committed; a test keeps the two equal.
 */
const extras = { usage: AgentUsageSchema.optional(), note: z.string().optional() };
// The hello answer is part of the line schema so an agent generating types sees it; only the start-up check reads it.
const AgentLineSchema = z.discriminatedUnion('type', [
  ...(ActionSchema.options.map((o) => o.extend(extras)) as unknown as [typeof ActionSchema.options[number], ...typeof ActionSchema.options[number][]]),
  AgentHelloSchema,
]);

/** One definition of the document, without its own $schema line. */
function def(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io }) as Record<string, unknown>;
  return rest;
}

export function protocolJsonSchema(): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: `InteractWeb-Bench command agent protocol, version ${PROTOCOL_VERSION}`,
    description: 'JSON Lines: the harness writes one harnessMessage per line to the agent\'s stdin; the agent answers each with one agentLine on stdout.',
    $defs: {
      harnessMessage: def(HarnessMessageSchema, 'output'),
      agentLine: def(AgentLineSchema, 'input'),
    },
  };
}

export const protocolJsonSchemaText = (): string => JSON.stringify(protocolJsonSchema(), null, 2) + '\n';
