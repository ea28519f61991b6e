import { parseArgs, UsageError, type FlagSpec } from './io.js';

/** A flag: a switch without `value`, else it takes one (`value` names it in the help). */
export interface FlagDecl {
  readonly name: string;
  readonly value?: string;
  readonly required?: boolean;
  readonly doc: string;
}

/** A command or subcommand: positional arguments, what it does, its flags; or, for a group, its subcommands. */
export interface CommandDecl {
  readonly args?: string;
  readonly summary: string;
  readonly flags?: readonly FlagDecl[];
  readonly subcommands?: Readonly<Record<string, CommandDecl>>;
}

/** The flag spec the parser enforces, read from the declaration. */
export function flagSpec(decl: CommandDecl): FlagSpec {
  const flags = decl.flags ?? [];
  return { string: flags.filter((f) => f.value !== undefined).map((f) => f.name), boolean: flags.filter((f) => f.value === undefined).map((f) => f.name) };
}

function flagUsage(f: FlagDecl): string {
  const text = `--${f.name}${f.value === undefined ? '' : ` <${f.value}>`}`;
  return f.required ? text : `[${text}]`;
}

/** One line: `iwb <path> <args> [--flag <value>] ...`. */
export function synopsis(path: string, decl: CommandDecl): string {
  return ['iwb', path, decl.args, ...(decl.flags ?? []).map(flagUsage)].filter(Boolean).join(' ');
}

function flagLines(decl: CommandDecl, indent: string): string[] {
  const flags = decl.flags ?? [];
  const heads = flags.map((f) => `--${f.name}${f.value === undefined ? '' : ` <${f.value}>`}`);
  const width = Math.max(0, ...heads.map((h) => h.length));
  return flags.map((f, i) => `${indent}${heads[i]!.padEnd(width)}  ${f.doc}`);
}

/** The synopsis lines of a command: one, or one per subcommand. */
export function synopses(path: string, decl: CommandDecl): string[] {
  if (!decl.subcommands) return [synopsis(path, decl)];
  return Object.entries(decl.subcommands).map(([sub, d]) => synopsis(`${path} ${sub}`, d));
}

/** `--help` of a command or subcommand: its synopsis, what it does, and every flag described. */
export function helpText(path: string, decl: CommandDecl): string {
  const [first, ...others] = synopses(path, decl);
  const lines = [`usage: ${first}`, ...others.map((s) => `       ${s}`), '', decl.summary];
  if (decl.subcommands) {
    for (const [sub, d] of Object.entries(decl.subcommands)) {
      lines.push('', `${path} ${sub}: ${d.summary}`, ...flagLines(d, '  '));
    }
    lines.push('', `iwb ${path} <subcommand> --help prints one subcommand's help`);
  } else {
    lines.push(...flagLines(decl, '  '));
  }
  return lines.join('\n');
}

/** The short usage a UsageError carries: the synopsis lines. */
export function usageText(path: string, decl: CommandDecl): string {
  return synopses(path, decl).map((s, i) => `${i === 0 ? 'usage:' : '      '} ${s}`).join('\n');
}

/** Parses a command's own arguments (after its name and subcommand) with exactly its declared flags. */
export function parseDeclared(args: string[], decl: CommandDecl): { positional: string[]; flags: Map<string, string | true> } {
  if (decl.subcommands) throw new Error('a command group is parsed per subcommand');
  return parseArgs(args, flagSpec(decl));
}

/** The subcommand named first in args, or a UsageError with the group's usage. */
export function subcommandOf(args: readonly string[], path: string, decl: CommandDecl): { name: string; decl: CommandDecl } {
  const name = args[0];
  const sub = name === undefined ? undefined : decl.subcommands?.[name];
  if (!name || !sub) throw new UsageError(`${name === undefined || name.startsWith('-') ? 'a subcommand is needed' : `unknown subcommand ${JSON.stringify(name)}`}\n${usageText(path, decl)}`);
  return { name, decl: sub };
}
