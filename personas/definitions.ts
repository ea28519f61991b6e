import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { PERSONAS, type Persona } from '../slots/schema.js';

/**
 * Each persona is defined once, as data in personas/<id>/definition.json: its requirements defect, the
 * Grice maxim it breaks, the prompt the LLM operator gets, and how it talks when answering. The offline
 * operator's word lists live there too (under "operator"), each validated by its operator module, so the
 * wording can be tuned without touching code.
 */

const StyleSchema = z
  .object({
    description: z.string().min(1),
    maxWords: z.number().int().positive(),
    openers: z.array(z.string()).min(1),
    closers: z.array(z.string()).min(1),
    factJoin: z.string(),
    nonAnswer: z.array(z.string().min(1)).min(1),
    refusal: z.array(z.string().min(1)).min(1),
    defend: z.array(z.string().includes('{stance}')).min(1),
    concede: z.array(z.string().includes('{fact}')).min(1),
    /** Asked whether something the user never mentioned should be there: it wants only what it asked for. */
    onlyAsked: z.array(z.string().min(1)).min(1),
    /** Told the request says something it never said ("the spec has payments, right?"): a no, in voice. */
    rejectPremise: z.array(z.string().min(1)).min(1),
  })
  .strict();
export type AnswerStyle = z.infer<typeof StyleSchema>;

const DefinitionSchema = z
  .object({
    id: z.enum(PERSONAS),
    name: z.string().min(1),
    defect: z.string().min(1),
    maxim: z.enum(['Quantity', 'Quality', 'Relation', 'Manner']),
    operatorPrompt: z.string().min(1),
    answerStyle: StyleSchema,
    operator: z.record(z.string(), z.unknown()),
  })
  .strict();
export type PersonaDefinition = z.infer<typeof DefinitionSchema>;

/** personas/<id>/definition.json, beside the persona's operator and voice. */
function definitionFile(persona: Persona): string {
  return `${persona.toLowerCase()}/definition.json`;
}

const cache = new Map<Persona, PersonaDefinition>();

export function personaDefinition(persona: Persona): PersonaDefinition {
  const hit = cache.get(persona);
  if (hit) return hit;
  const file = fileURLToPath(new URL(`./${definitionFile(persona)}`, import.meta.url));
  const parsed = DefinitionSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file}: ${z.prettifyError(parsed.error)}`);
  if (parsed.data.id !== persona) throw new Error(`${file}: id is ${parsed.data.id}, expected ${persona}`);
  cache.set(persona, parsed.data);
  return parsed.data;
}

export function allPersonaDefinitions(): PersonaDefinition[] {
  return PERSONAS.map(personaDefinition);
}

/** The operator-specific part of a definition, checked against the operator's own schema. */
export function operatorData<S extends z.ZodType>(persona: Persona, schema: S): z.output<S> {
  const parsed = schema.safeParse(personaDefinition(persona).operator);
  if (!parsed.success) throw new Error(`personas/${definitionFile(persona)} "operator": ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** A prompt file from personas/prompts/, with {placeholders} filled; a placeholder left unfilled is a bug. */
export function prompt(name: string, values: Record<string, string>): string {
  const file = fileURLToPath(new URL(`./prompts/${name}.md`, import.meta.url));
  const text = readFileSync(file, 'utf8').replace(/\{(\w+)\}/g, (whole, key: string) => {
    const v = values[key];
    if (v === undefined) throw new Error(`${file}: no value for {${key}}`);
    return v;
  });
  return text.trim();
}
