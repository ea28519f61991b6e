import { promises as fs } from 'node:fs';

/**
 * The run folder's write rule: a file appears whole or not at all (written to a private name, then renamed),
 * so a reader in another worker never sees half of it and a killed run leaves no torn file behind.
 */
export async function writeAtomic(file: string, content: string): Promise<void> {
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await fs.writeFile(tmp, content);
  await fs.rename(tmp, file);
}
