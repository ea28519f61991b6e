import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import type { Case, WeightedSlot } from '../slots/schema.js';

/**
 * Where a slot is written: its task file and line. Playwright gives a test the location of the call that
 * declared it, which for generated tests is the same line of specs/declare.ts for all 3,000 of them; the
 * reports then point a reader at the loop instead of the requirement. The task's `source` names its file
 * (built-in tasks: task.json, where the slot's own `"id"` line is found) or `file:line` (a JSONL record).
 * Null when the source is not a file on this machine.
 */
export function slotLocation(c: Case, slot: WeightedSlot, cwd = process.cwd()): { file: string; line: number } | null {
  const m = /^(.*?)(?::(\d+))?$/.exec(c.task.source);
  const file = path.resolve(cwd, m?.[1] ?? c.task.source);
  if (!exists(file)) return null;
  if (m?.[2]) return { file, line: Number(m[2]) };
  const idLine = linesOf(file).findIndex((l) => new RegExp(`"id"\\s*:\\s*${JSON.stringify(slot.id).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`).test(l));
  return { file, line: idLine >= 0 ? idLine + 1 : 1 };
}

const existing = new Map<string, boolean>();
const exists = (file: string): boolean => {
  if (!existing.has(file)) existing.set(file, fs.statSync(file, { throwIfNoEntry: false })?.isFile() ?? false);
  return existing.get(file)!;
};

// Only task.json files are read whole: a JSONL source names its line already.
const lines = new Map<string, string[]>();
const linesOf = (file: string): string[] => {
  if (!lines.has(file)) lines.set(file, fs.readFileSync(file, 'utf8').split('\n'));
  return lines.get(file)!;
};

/** The compiled caller: it only forwards its arguments, so it serves every declaring function. */
type Call = (declare: unknown, args: readonly unknown[]) => void;
const callers = new Map<string, Call>();

/**
 * Runs `declare(...args)` from a one-line function compiled as if it stood at `file:line`, so Playwright,
 * which reads the declaring call's frame from the stack, records that location. Compiled once per place.
 */
export function callAt<A extends unknown[]>(where: { file: string; line: number } | null, declare: (...args: A) => void, ...args: A): void {
  if (!where) return declare(...args);
  const key = `${where.file}:${where.line}`;
  let call = callers.get(key);
  if (!call) {
    call = vm.runInThisContext('(declare, args) => declare(...args)', { filename: where.file, lineOffset: where.line - 1 }) as Call;
    callers.set(key, call);
  }
  call(declare, args);
}
