import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { readJsonlLines } from './jsonl-lines.js';

/**
 * Checks that run on the raw records before the strict loader, so a file the loader refuses at its first
 * duplicate still gets every duplicate and every slot without a target component listed at once.
 */

export interface RawFinding {
  kind: 'duplicate id' | 'missing target component';
  /** file:line (JSONL) or the task file. */
  where: string;
  record?: string;
  field: string;
  message: string;
}

const LooseSlot = z.looseObject({ id: z.unknown().optional(), target_component: z.unknown().optional() });
const LooseRecord = z.looseObject({
  id: z.unknown().optional(),
  original_id: z.unknown().optional(),
  persona: z.unknown().optional(),
  oracle_slots: z.array(LooseSlot).optional(),
  slots: z.array(LooseSlot).optional(),
});

function slotFindings(slots: z.infer<typeof LooseSlot>[], where: string, record: string | undefined, field: string): RawFinding[] {
  const out: RawFinding[] = [];
  const seen = new Map<string, number>();
  slots.forEach((s, i) => {
    const tc = s.target_component;
    if (typeof tc !== 'string' || tc.trim() === '') {
      out.push({ kind: 'missing target component', where, record, field: `${field}[${i}].target_component`, message: 'slot has no target component' });
    }
    if (typeof s.id === 'string') {
      const first = seen.get(s.id);
      if (first !== undefined) out.push({ kind: 'duplicate id', where, record, field: `${field}[${i}].id`, message: `slot id ${s.id} repeats ${field}[${first}]` });
      else seen.set(s.id, i);
    }
  });
  return out;
}

export async function rawCheckJsonl(file: string): Promise<RawFinding[]> {
  const lines = await readJsonlLines(file);
  const out: RawFinding[] = [];
  const caseIds = new Map<string, number>();
  const taskPersonas = new Map<string, number>();
  lines.forEach(({ text: line, lineNo }) => {
    const i = lineNo - 1;
    const where = `${file}:${lineNo}`;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      return; // the strict loader names the bad line
    }
    const r = LooseRecord.safeParse(raw);
    if (!r.success) return;
    const id = typeof r.data.id === 'string' ? r.data.id : undefined;
    if (id !== undefined) {
      const first = caseIds.get(id);
      if (first !== undefined) out.push({ kind: 'duplicate id', where, record: id, field: 'id', message: `case id repeats line ${first}` });
      else caseIds.set(id, i + 1);
    }
    if (typeof r.data.original_id === 'string' && typeof r.data.persona === 'string') {
      const key = `${r.data.original_id} ${r.data.persona}`;
      const first = taskPersonas.get(key);
      if (first !== undefined) out.push({ kind: 'duplicate id', where, record: id, field: 'original_id + persona', message: `task ${r.data.original_id} has a second ${r.data.persona} case (first on line ${first})` });
      else taskPersonas.set(key, i + 1);
    }
    out.push(...slotFindings(r.data.oracle_slots ?? [], where, id, 'oracle_slots'));
  });
  return out;
}

/** Built-in task folders: task ids must be unique (folder names are, the ids inside may not be). */
export async function rawCheckBuiltin(dir: string): Promise<RawFinding[]> {
  const out: RawFinding[] = [];
  const ids = new Map<string, string>();
  const names = (await fs.readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  for (const name of names) {
    const file = path.join(dir, name, 'task.json');
    let raw: unknown;
    try {
      raw = JSON.parse(await fs.readFile(file, 'utf8'));
    } catch {
      continue;
    }
    const r = LooseRecord.safeParse(raw);
    if (!r.success) continue;
    if (typeof r.data.id === 'string') {
      const first = ids.get(r.data.id);
      if (first) out.push({ kind: 'duplicate id', where: file, record: r.data.id, field: 'id', message: `task id also used by ${first}` });
      else ids.set(r.data.id, file);
    }
    out.push(...slotFindings(r.data.slots ?? [], file, typeof r.data.id === 'string' ? r.data.id : name, 'slots'));
  }
  return out;
}
