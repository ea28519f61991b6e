import { promises as fs, renameSync, writeFileSync } from 'node:fs';

/**
 * The run folder's write rule: a file appears whole or not at all (written to a private name, then renamed),
 * so a reader in another worker never sees half of it and a killed run leaves no torn file behind.
 */
export async function writeAtomic(file: string, content: string): Promise<void> {
  const tmp = privateName(file);
  await fs.writeFile(tmp, content);
  await fs.rename(tmp, file);
}

/**
 * A name from the data (a case, slot or agent id) as one path segment of the run folder: anything but letters,
 * digits, `_`, `.` and `-` becomes `_`, and a name of dots only is not allowed to mean this folder or its parent.
 */
export function fileSafe(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9_.-]/g, '_');
  return /^\.*$/.test(safe) ? safe.replace(/\./g, '_') || '_' : safe;
}

/** writeAtomic for the few callers that must stay synchronous (memo files read back while a spec declares its tests). */
export function writeAtomicSync(file: string, content: string): void {
  const tmp = privateName(file);
  writeFileSync(tmp, content);
  renameSync(tmp, file);
}

/** A name beside `file` that no other writer, in this process or another, will pick. */
function privateName(file: string): string {
  return `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
}
