import { z } from 'zod';

/**
 * A deterministic probe: an ordered list of Playwright actions and expectations, written as data so a
 * task file can carry it and a reviewer can read it. Every item runs in order on a fresh page; the first
 * expectation that does not hold fails the probe, with its index and what was seen as evidence.
 */

export const TargetSchema = z
  .object({
    role: z.string().optional(),
    name: z.string().optional(),
    text: z.string().optional(),
    label: z.string().optional(),
    placeholder: z.string().optional(),
    css: z.string().optional(),
    exact: z.boolean().optional(),
    nth: z.number().int().optional(),
  })
  .strict()
  .refine((t) => Boolean(t.role || t.text || t.label || t.placeholder || t.css), {
    message: 'a target needs one of role, text, label, placeholder or css',
  });
export type Target = z.infer<typeof TargetSchema>;

const Goto = z.object({ action: z.literal('goto'), path: z.string().default('/') }).strict();
const Click = z.object({ action: z.literal('click'), target: TargetSchema }).strict();
const Fill = z.object({ action: z.literal('fill'), target: TargetSchema, value: z.string() }).strict();
const Select = z.object({ action: z.literal('select'), target: TargetSchema, value: z.string() }).strict();
const Check = z.object({ action: z.literal('check'), target: TargetSchema }).strict();
const Press = z.object({ action: z.literal('press'), key: z.string(), target: TargetSchema.optional() }).strict();
const Hover = z.object({ action: z.literal('hover'), target: TargetSchema }).strict();
const Wait = z.object({ action: z.literal('wait'), ms: z.number().int().min(0).max(5000) }).strict();
const Reload = z.object({ action: z.literal('reload') }).strict();
const Viewport = z
  .object({ action: z.literal('viewport'), width: z.number().int().min(200), height: z.number().int().min(200) })
  .strict();

const Visible = z.object({ expect: z.literal('visible'), target: TargetSchema }).strict();
const Hidden = z.object({ expect: z.literal('hidden'), target: TargetSchema }).strict();
const Count = z
  .object({
    expect: z.literal('count'),
    target: TargetSchema,
    equals: z.number().int().min(0).optional(),
    min: z.number().int().min(0).optional(),
    max: z.number().int().min(0).optional(),
  })
  .strict()
  .refine((c) => c.equals !== undefined || c.min !== undefined || c.max !== undefined, {
    message: 'a count expectation needs equals, min or max',
  });
const Text = z
  .object({
    expect: z.literal('text'),
    target: TargetSchema,
    contains: z.string().optional(),
    equals: z.string().optional(),
    matches: z.string().optional(),
    not: z.boolean().optional(),
  })
  .strict()
  .refine((t) => [t.contains, t.equals, t.matches].filter((v) => v !== undefined).length === 1, {
    message: 'a text expectation needs exactly one of contains, equals or matches',
  });
const Css = z
  .object({
    expect: z.literal('css'),
    target: TargetSchema,
    property: z.string(),
    equals: z.string().optional(),
    oneOf: z.array(z.string()).min(1).optional(),
  })
  .strict()
  .refine((c) => (c.equals === undefined) !== (c.oneOf === undefined), {
    message: 'a css expectation needs exactly one of equals or oneOf',
  });
const Title = z.object({ expect: z.literal('title'), contains: z.string() }).strict();
const Url = z.object({ expect: z.literal('url'), contains: z.string() }).strict();
const Storage = z
  .object({ expect: z.literal('storage'), key: z.string(), contains: z.string().optional() })
  .strict();
const NoOverflow = z.object({ expect: z.literal('no-horizontal-overflow') }).strict();

export const ProbeActionSchema = z.discriminatedUnion('action', [
  Goto,
  Click,
  Fill,
  Select,
  Check,
  Press,
  Hover,
  Wait,
  Reload,
  Viewport,
]);
export const ProbeExpectationSchema = z.union([Visible, Hidden, Count, Text, Css, Title, Url, Storage, NoOverflow]);
export const ProbeItemSchema = z.union([ProbeActionSchema, ProbeExpectationSchema]);
export type ProbeAction = z.infer<typeof ProbeActionSchema>;
export type ProbeExpectation = z.infer<typeof ProbeExpectationSchema>;
export type ProbeItem = z.infer<typeof ProbeItemSchema>;

export const ProbeSchema = z
  .object({
    steps: z.array(ProbeItemSchema).min(1),
  })
  .strict()
  .refine((p) => p.steps.some((s) => 'expect' in s), { message: 'a probe needs at least one expectation' });
export type Probe = z.infer<typeof ProbeSchema>;
