import { PUBLIC_DATA_VARIABLE } from '../config/public-data.js';
import { helpText, parseDeclared, subcommandOf, synopses, usageText, type CommandDecl, type FlagDecl } from './command-decl.js';

/**
 * Every `iwb` subcommand and its flags, declared once: the parser (cli/command-decl.ts parseCommand) accepts
 * exactly these flags and `--help` prints exactly these descriptions, so the two cannot drift apart.
 */
const json = (what: string): FlagDecl => ({ name: 'json', doc: `print ${what} as JSON` });
const offline = (role: string): FlagDecl => ({ name: 'offline', doc: `never call the ${role} model, even when one is configured (the offline path)` });
const seed: FlagDecl = { name: 'seed', value: 'N', doc: 'the seed of the offline paths (default 0)' };
const DATASET = '<dataset.jsonl | builtin>';
const maxErrored: FlagDecl = { name: 'max-errored', value: 'pct', doc: 'the share of errored inputs tolerated, e.g. 5% (default none; IWB_MAX_ERRORED); past it the command exits 1 (docs/exit-codes.md)' };

export const COMMAND_DECLS = {
  dataset: {
    summary: 'check, build, split, describe and fetch datasets',
    subcommands: {
      check: { args: DATASET, summary: 'load a dataset and list every problem (file, line, field) or its counts', flags: [json('the counts or the problems')] },
      build: {
        args: '<test.jsonl>',
        summary: 'build an InteractWeb-Bench dataset from a WebGen-Bench test file (gold, slots, persona instructions)',
        flags: [
          { name: 'from', value: 'webgen', required: true, doc: 'the input format (only webgen)' },
          { name: 'out', value: 'file.jsonl', required: true, doc: 'where to write the dataset' },
          offline('operator'),
          seed,
          maxErrored,
        ],
      },
      split: { args: DATASET, summary: 'which tasks are dev and which hold-out, with the strata counts', flags: [json('the split')] },
      schema: { summary: 'write the JSON Schemas of the dataset formats', flags: [{ name: 'out', value: 'folder', doc: 'where to write them (default schemas/)' }] },
      fetch: {
        args: '<interactweb-bench | webgen-bench>',
        summary: 'download a public release and check each file against its pinned sha256; a mismatch keeps nothing',
        flags: [
          { name: 'url', value: 'base URL', doc: "where the files are (each fetched as <base URL>/<file>); default: the release's pinned commit on GitHub" },
          { name: 'dir', value: 'folder', doc: `where to put them; default: the user's cache (~/.cache/iwb/datasets/<name>), where the tests look after ${PUBLIC_DATA_VARIABLE}` },
        ],
      },
    },
  },
  doctor: {
    summary: 'check every configured model role (reachable, key, model, tools, images, JSON mode)',
    flags: [json('one result per role')],
  },
  som: {
    args: '<url | file.html>',
    summary: 'label a page as the judge sees it (Set-of-Mark) and list its marks',
    flags: [
      json('the marks'),
      { name: 'out', value: 'labelled.png', doc: 'where to write the labelled screenshot (default labelled.png)' },
      { name: 'viewport', value: 'WxH', doc: 'the viewport (default 1280x800)' },
    ],
  },
  judge: {
    summary: 'measure the judge against hand-labelled sites',
    subcommands: {
      calibrate: {
        summary: "score the calibration sites with the configured judge and report its agreement with the labels",
        flags: [
          json('the agreement figures'),
          { name: 'task', value: 'id,...', doc: 'only these tasks (comma-separated ids)' },
          { name: 'concurrency', value: 'N', doc: 'judge sessions in flight (default 3)' },
          maxErrored,
        ],
      },
    },
  },
  report: {
    args: '<run-dir | scored run folder | records.json>',
    summary: 'score a finished run again from its kept slot records: no model, no browser',
    flags: [
      { name: 'run', value: 'id', doc: 'which run of a run folder that holds several' },
      { name: 'profile', value: 'iwb|paper', doc: 'the scoring profile (default: the one the run used)' },
      { name: 'out', value: 'folder', doc: 'where to write the reports (default: the report folder, IWB_REPORT_DIR)' },
      maxErrored,
      json('the headline figures'),
    ],
  },
  compare: {
    args: '<report.json | report dir> [<report.json | report dir>...]',
    summary: 'rank runs with their intervals; with two runs, the paired difference',
    flags: [
      json('the comparison'),
      { name: 'metric', value: 'tcr|hr|sr', doc: 'the metric to rank by (default tcr)' },
      { name: 'mixed', doc: 'rank runs scored under different profiles anyway (refused otherwise: their figures are not comparable; re-score with iwb report --profile)' },
      { name: 'html', value: 'out.html', doc: "with two runs (A B): a page with both runs' headline figures and intervals, the paired difference per persona and difficulty, and the cases and slots that flipped, linked to both case pages" },
      maxErrored,
    ],
  },
  open: {
    args: '[<folder>]',
    summary: "serve a run's reports on http://127.0.0.1 (a browser blocks the Allure report's data loads from file://); <folder> defaults to the report folder, IWB_REPORT_DIR, or with --allure IWB_ALLURE_REPORT",
    flags: [
      { name: 'allure', doc: "serve the Allure report, after removing its calls out (Google's tag manager)" },
      { name: 'port', value: 'N', doc: 'the port (default: a free one)' },
      { name: 'no-serve', doc: 'only make the Allure report offline and exit (npm run report:allure does this)' },
    ],
  },
  docs: {
    summary: 'documentation generated from the code',
    subcommands: {
      metrics: { summary: 'the metric table of docs/metrics.md, from reporters/metric-table.ts', flags: [{ name: 'write', doc: 'rewrite the table in docs/metrics.md instead of printing it' }] },
      settings: { summary: 'the settings table of docs/configuration.md, from config/settings-table.ts and the other declarations', flags: [{ name: 'write', doc: 'rewrite the table in docs/configuration.md instead of printing it' }] },
      providers: { summary: 'the provider-quirk table of docs/providers.md, from llm/quirks.ts', flags: [{ name: 'write', doc: 'rewrite the table in docs/providers.md instead of printing it' }] },
    },
  },
  personas: {
    summary: 'the four personas: degrade instructions, test the simulated user, annotate, ask',
    subcommands: {
      mutate: {
        args: DATASET,
        summary: "rewrite each task's instruction in the four persona voices (the operator model, or seeded operators offline)",
        flags: [{ name: 'out', value: 'file.jsonl', required: true, doc: 'where to write the degraded dataset' }, offline('operator'), seed],
      },
      'leak-test': {
        args: DATASET,
        summary: 'ask the simulated user a battery of questions per case and score its answers (correct, refusal, leaks)',
        flags: [
          offline('user'),
          seed,
          json('the rates per persona'),
          { name: 'max-errored', value: 'pct', doc: 'the share of errored turns tolerated, e.g. 5% (default none: an errored turn changes what the rates are measured on)' },
        ],
      },
      annotate: {
        args: '<dataset.jsonl>',
        summary: "record which slots each persona's instruction omits, blurs or contradicts (the operator or user model, or text comparison offline)",
        flags: [
          offline('operator or user'),
          json('the counts per persona'),
          { name: 'out', value: 'file', doc: 'where to write the records (default: a cache under the run folder, IWB_RUN_DIR/degradation, where a run looks)' },
          { name: 'beside', doc: 'write the records beside the dataset (<dataset>.degradation.json), to keep with it' },
        ],
      },
      ask: {
        args: `${DATASET} <case-id> "question" ["question" ...]`,
        summary: "ask one case's simulated user questions, as an agent would, and show its answers, retrieval and leak check",
        flags: [offline('user'), seed, json('the turns')],
      },
    },
  },
  cache: {
    summary: 'the recorded model calls (IWB_LLM_CACHE_DIR)',
    subcommands: {
      stats: { summary: 'count the recorded replies and their size', flags: [json('the counts')] },
      prune: {
        summary: 'remove replies older than a given age',
        flags: [{ name: 'older-than', value: 'days', required: true, doc: 'the age, e.g. 30d' }, json('what was removed')],
      },
    },
  },
  config: {
    summary: 'the resolved configuration (environment over iwb.config.ts / .json over defaults), keys masked, with the source of each value',
    flags: [json('the values and their sources'), { name: 'vars', doc: 'every IWB_ variable this build reads, with what it means' }],
  },
  protocol: {
    summary: 'the command-agent protocol',
    subcommands: {
      schema: {
        summary: 'the protocol as JSON Schema, generated from the zod schemas the harness enforces',
        flags: [{ name: 'out', value: 'file.json', doc: 'write it to this file instead of printing it' }],
      },
    },
  },
  init: {
    summary: 'write a commented starter iwb.config.ts (or a plain iwb.config.json) in the working folder',
    flags: [{ name: 'json', doc: 'write iwb.config.json (no comments) instead' }, { name: 'force', doc: 'overwrite an existing file' }],
  },
} as const satisfies Record<string, CommandDecl>;

export type CommandName = keyof typeof COMMAND_DECLS;

function declOf(name: CommandName, sub?: string): CommandDecl {
  const decl: CommandDecl = COMMAND_DECLS[name];
  const found = sub === undefined ? decl : decl.subcommands?.[sub];
  if (!found) throw new Error(`cli/commands.ts declares no ${name} ${sub ?? ''}`);
  return found;
}

/** The synopsis lines a UsageError carries. */
export function usageOf(name: CommandName, sub?: string): string {
  return usageText(sub === undefined ? name : `${name} ${sub}`, declOf(name, sub));
}

/** A command's (or subcommand's) own arguments, parsed with exactly its declared flags. */
export function parseCommand(args: string[], name: CommandName, sub?: string): { positional: string[]; flags: Map<string, string | true> } {
  return parseDeclared(args, declOf(name, sub));
}

/** A command group's arguments: the subcommand named first, then its own arguments parsed with its flags. */
export function parseGroup(args: string[], name: CommandName): { sub: string; positional: string[]; flags: Map<string, string | true> } {
  const { name: sub, decl } = subcommandOf(args, name, declOf(name));
  return { sub, ...parseDeclared(args.slice(1), decl) };
}

/** What `iwb <name> [<sub>] --help` prints: a subcommand's own help when args name one. */
export function helpOf(name: CommandName, args: readonly string[]): string {
  const decl = declOf(name);
  const sub = args[0] !== undefined ? decl.subcommands?.[args[0]] : undefined;
  return sub ? helpText(`${name} ${args[0]}`, sub) : helpText(name, decl);
}

/** The overview `iwb --help` prints: one synopsis per command or subcommand. */
export function overview(): string[] {
  return Object.entries(COMMAND_DECLS).flatMap(([name, decl]) => synopses(name, decl));
}

export function isCommandName(name: string | undefined): name is CommandName {
  return name !== undefined && Object.hasOwn(COMMAND_DECLS, name);
}
