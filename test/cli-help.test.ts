import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { flagSpec, type CommandDecl } from '../cli/command-decl.js';
import { COMMAND_DECLS, parseCommand, parseGroup, type CommandName } from '../cli/commands.js';
import { UsageError } from '../cli/io.js';
import { main } from '../cli/main.js';
import { capture } from './cli-capture.js';

const CLI = fileURLToPath(new URL('../cli/', import.meta.url));

/** Every (command, subcommand) pair with its declaration; a plain command has no subcommand. */
function leaves(): { name: CommandName; sub?: string; decl: CommandDecl }[] {
  return (Object.entries(COMMAND_DECLS) as [CommandName, CommandDecl][]).flatMap(([name, decl]) =>
    decl.subcommands ? Object.entries(decl.subcommands).map(([sub, d]) => ({ name, sub, decl: d })) : [{ name, decl }],
  );
}

const declared = (d: CommandDecl) => new Set((d.flags ?? []).map((f) => f.name));
/** The flags a help text describes (a line of their own) and those its usage line shows. */
const describedFlags = (help: string) => new Set([...help.matchAll(/^ {2}--([a-z][a-z-]*)/gm)].map((m) => m[1]!));
const usageFlags = (help: string) => new Set([...help.split('\n')[0]!.matchAll(/(?<![\w-])--([a-z][a-z-]*)/g)].map((m) => m[1]!));

test('cli help: each subcommand prints its own help, and it names exactly the flags its parser accepts', async () => {
  const seen = new Set<string>();
  for (const { name, sub, decl } of leaves()) {
    const argv = [name, ...(sub ? [sub] : []), '--help'];
    const io = capture();
    assert.equal(await main(argv, io), 0, argv.join(' '));
    const help = io.outText();
    assert.match(help, new RegExp(`^usage: iwb ${name}${sub ? ` ${sub}` : ''}`), argv.join(' '));
    assert.ok(!seen.has(help), `${argv.join(' ')} prints another command's help`);
    seen.add(help);
    for (const f of decl.flags ?? []) assert.match(help, new RegExp(`\\n  --${f.name}\\b.*  ${f.doc.slice(0, 20).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`), `${argv.join(' ')}: --${f.name} described`);
    assert.deepEqual(describedFlags(help), declared(decl), `${argv.join(' ')}: the help describes the declared flags`);
    assert.deepEqual(usageFlags(help), declared(decl), `${argv.join(' ')}: the usage line shows the declared flags`);
    // The parser accepts each declared flag (with a value when it takes one) and refuses any other.
    const spec = flagSpec(decl);
    const given = [...(spec.string ?? []).flatMap((f) => [`--${f}`, 'x']), ...(spec.boolean ?? []).map((f) => `--${f}`)];
    const parse = (args: string[]) => (sub ? parseGroup([sub, ...args], name) : parseCommand(args, name));
    assert.deepEqual(new Set(parse(given).flags.keys()), declared(decl), argv.join(' '));
    assert.throws(() => parse(['--not-a-flag']), (e: unknown) => e instanceof UsageError && /Unknown option '--not-a-flag'/.test(e.message));
  }
  // The groups' own help lists every subcommand with its flags, including those the old help left out.
  const personas = capture();
  assert.equal(await main(['personas', '--help'], personas), 0);
  for (const sub of ['mutate', 'leak-test', 'annotate', 'ask']) assert.match(personas.outText(), new RegExp(`\\n {7}iwb personas ${sub}|^usage: iwb personas ${sub}`));
  assert.match(personas.outText(), /--beside/);
  const compare = capture();
  assert.equal(await main(['compare', '-h'], compare), 0);
  assert.match(compare.outText(), /\n {2}--mixed +rank runs scored under different profiles/);
});

test('cli help: iwb --help lists every subcommand, and an unknown subcommand names the group usage', async () => {
  const io = capture();
  assert.equal(await main(['--help'], io), 0);
  for (const { name, sub } of leaves()) assert.match(io.outText(), new RegExp(`\\n  iwb ${name}${sub ? ` ${sub}` : ''}( |\\n|$)`), `${name} ${sub ?? ''}`);
  const bad = capture();
  assert.equal(await main(['personas', 'frobnicate', 'builtin'], bad), 2);
  assert.match(bad.errText(), /^iwb personas: unknown subcommand "frobnicate"\nusage: iwb personas mutate/);
});

test('cli help: every flag a command reads is declared for it, and no command parses flags of its own', async () => {
  const files = (await fs.readdir(CLI)).filter((f) => f.endsWith('.ts'));
  let checked = 0;
  for (const file of files) {
    const text = await fs.readFile(path.join(CLI, file), 'utf8');
    if (file !== 'io.ts' && file !== 'command-decl.ts') assert.doesNotMatch(text, /\bparseArgs\(/, `cli/${file} parses flags without a declaration`);
    const commands = [...text.matchAll(/parse(?:Command|Group)\(\w+(?:\.slice\(\d\))?, '([a-z]+)'/g)].map((m) => m[1] as CommandName);
    if (commands.length === 0) continue;
    const accepted = new Set(commands.flatMap((c) => leavesOf(c)).flatMap((d) => [...declared(d)]));
    for (const m of text.matchAll(/flags\.(?:get|has)\('([a-z-]+)'\)/g)) {
      assert.ok(accepted.has(m[1]!), `cli/${file} reads --${m[1]} but cli/commands.ts does not declare it for ${commands.join(', ')}`);
      checked++;
    }
  }
  assert.ok(checked > 30, `only ${checked} flag reads found: the scan no longer matches the code`);
});

function leavesOf(name: CommandName): CommandDecl[] {
  const decl: CommandDecl = COMMAND_DECLS[name];
  return decl.subcommands ? Object.values(decl.subcommands) : [decl];
}
