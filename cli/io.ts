/** What a CLI command may touch: its output streams. Commands return an exit code, never call exit. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

export const processIo: CliIo = {
  out: (t) => process.stdout.write(t.endsWith('\n') ? t : t + '\n'),
  err: (t) => process.stderr.write(t.endsWith('\n') ? t : t + '\n'),
};

/** Splits `--flag value` / `--flag` options from positional arguments. */
export function parseArgs(args: string[], valued: readonly string[] = []): { positional: string[]; flags: Map<string, string | true> } {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('--')) {
      positional.push(a);
      continue;
    }
    const [name, inline] = a.slice(2).split('=', 2) as [string, string | undefined];
    if (inline !== undefined) flags.set(name, inline);
    else if (valued.includes(name)) {
      const v = args[++i];
      if (v === undefined) throw new UsageError(`--${name} needs a value`);
      flags.set(name, v);
    } else flags.set(name, true);
  }
  return { positional, flags };
}

export class UsageError extends Error {
  override name = 'UsageError';
}
