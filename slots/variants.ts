import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/**
 * A broken variant of a built-in task's reference site, kept as data in `tasks/<id>/variants.json`: the
 * edits that break it (each `from` must occur exactly once in its file) and the slots it makes fail. The
 * answers are the truth about the site, decided by reading it, not whatever the probes say: calibration
 * exists to catch the probes being wrong. The variant's files are made at calibration time, so the
 * repository holds one copy of each site.
 */
const EditSchema = z.object({ file: z.string().min(1), from: z.string().min(1), to: z.string() }).strict();
const VariantSchema = z
  .object({
    kind: z.enum(['wrong colour', 'wrong style', 'removed feature', 'unrequested feature']),
    fails: z.array(z.string()).min(1),
    edits: z.array(EditSchema).min(1),
  })
  .strict();
export const VariantsFileSchema = z.record(z.string().regex(/^[a-z0-9-]+$/), VariantSchema);
export type Variant = z.infer<typeof VariantSchema>;

/** The task's variants by name (none when the task has no variants.json); a bad file is named. */
export async function loadVariants(taskDir: string, slotIds: string[]): Promise<Record<string, Variant>> {
  const file = path.join(taskDir, 'variants.json');
  const text = await fs.readFile(file, 'utf8').catch(() => null);
  if (text === null) return {};
  const parsed = VariantsFileSchema.safeParse(JSON.parse(text));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${file}: field ${issue.path.join('.')}: ${issue.message}`);
  }
  for (const [name, v] of Object.entries(parsed.data)) {
    const unknown = v.fails.filter((s) => !slotIds.includes(s));
    if (unknown.length) throw new Error(`${file}: variant ${name}: field fails names unknown slot(s) ${unknown.join(', ')}`);
  }
  return parsed.data;
}

/** Writes the reference site with the variant's edits applied into `out`. */
export async function materialiseVariant(referenceSite: string, name: string, v: Variant, out: string): Promise<void> {
  await fs.cp(referenceSite, out, { recursive: true });
  for (const e of v.edits) {
    const file = path.join(out, e.file);
    const text = await fs.readFile(file, 'utf8');
    const copies = text.split(e.from).length - 1;
    if (copies !== 1) throw new Error(`variant ${name}: ${e.file} holds ${copies} copies of the text to change (exactly one expected); update variants.json`);
    await fs.writeFile(file, text.replace(e.from, () => e.to));
  }
}
