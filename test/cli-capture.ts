import type { CliIo } from '../cli/io.js';

/** A command's output and errors kept for the test to read, instead of the terminal. */
export function capture(): CliIo & { outText: () => string; errText: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  return { out: (t) => out.push(t), err: (t) => err.push(t), outText: () => out.join('\n'), errText: () => err.join('\n') };
}
