import { parseArgs as parseNodeArgs } from 'node:util';
import { rawProcessEnv } from '../config/process-env.js';

/** What a CLI command may touch: its output streams. Commands return an exit code, never call exit. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

export const processIo: CliIo = {
  out: (t) => process.stdout.write(t.endsWith('\n') ? t : t + '\n'),
  err: (t) => process.stderr.write(t.endsWith('\n') ? t : t + '\n'),
};

/**
 * The environment a command reads when its caller passes none: the CLI's one binding to the process's
 * environment, beside its streams (a test passes a plain record instead).
 */
export function cliEnv(): NodeJS.ProcessEnv {
  return rawProcessEnv();
}

/** A command's flags: which take a value and which are switches; anything else is an error. */
export interface FlagSpec {
  string?: readonly string[];
  boolean?: readonly string[];
}

/**
 * Splits flags from positional arguments with node:util's parser, strictly: an unknown flag, a missing
 * value or a value given to a switch is a UsageError naming it. `--help` and `--version` are handled by
 * cli/main.ts before a command runs. The legacy form (a list of flags that take a value) still parses,
 * leniently, for commands not yet given a FlagSpec.
 */
export function parseArgs(args: string[], spec: FlagSpec | readonly string[] = {}): { positional: string[]; flags: Map<string, string | true> } {
  if (Array.isArray(spec)) return parseLegacy(args, spec as readonly string[]);
  const s = spec as FlagSpec;
  const options: Record<string, { type: 'string' | 'boolean' }> = {};
  for (const n of s.string ?? []) options[n] = { type: 'string' };
  for (const n of s.boolean ?? []) options[n] = { type: 'boolean' };
  let parsed: ReturnType<typeof parseNodeArgs>;
  try {
    parsed = parseNodeArgs({ args, options, strict: true, allowPositionals: true });
  } catch (e) {
    const known = Object.entries(options).map(([n, o]) => `--${n}${o.type === 'string' ? ' <value>' : ''}`);
    const message = (e as Error).message.split('\n')[0]!.replace(/\. To specify a positional argument.*$/, '');
    throw new UsageError(`${message}${known.length ? ` (flags: ${known.join(', ')})` : ' (this command takes no flags)'}`);
  }
  const flags = new Map<string, string | true>();
  for (const [k, v] of Object.entries(parsed.values)) if (typeof v === 'string') flags.set(k, v);
  else if (v === true) flags.set(k, true);
  return { positional: parsed.positionals, flags };
}

function parseLegacy(args: string[], valued: readonly string[]): { positional: string[]; flags: Map<string, string | true> } {
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
