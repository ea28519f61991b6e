/**
 * The layers, written down (in the spirit of Playwright's DEPS.list): each top-level folder, lowest first, with
 * the folders it may import. A folder may only name folders listed before it, so the allowed graph has no cycle
 * and every arrow points down; test/layers.test.ts checks every relative import of the tree against this table.
 * To add an arrow, add it here and say why in the commit; an arrow that would point up means a module is in the
 * wrong folder.
 */
export interface Layer {
  folder: string;
  may: readonly string[];
  why: string;
}

export const LAYERS: readonly Layer[] = [
  { folder: 'protocol', may: [], why: 'contracts: enums, annotations, records and file primitives every layer shares' },
  { folder: 'stats', may: [], why: 'seeded PRNG, bootstrap and intervals: pure numbers' },
  { folder: 'config', may: ['protocol', 'stats'], why: 'settings registry: the settings, judge and role tables, the config file, the frozen run config' },
  { folder: 'llm', may: ['config', 'protocol'], why: 'model client, roles, limits, call cache' },
  { folder: 'testkit', may: ['llm'], why: 'fakes (the OpenAI-compatible server) for test/ and bench/; a quirk is named by its row in llm/quirks.ts' },
  { folder: 'sandbox', may: ['config', 'llm'], why: 'bubblewrap sandbox, browser network policy, confined file access to untrusted trees' },
  { folder: 'site', may: ['protocol', 'sandbox'], why: 'serving (sandboxed) and rendering the site under test' },
  { folder: 'slots', may: ['protocol', 'stats'], why: 'task and slot schemas, dataset loading' },
  { folder: 'personas', may: ['llm', 'protocol', 'slots', 'stats'], why: 'the four personas and the simulated user' },
  { folder: 'vision', may: ['sandbox', 'site'], why: 'Set-of-Mark, page actions, page guard, PNG, untrusted-content fence' },
  { folder: 'agent', may: ['config', 'llm', 'personas', 'protocol', 'sandbox', 'site', 'slots', 'vision'], why: 'the episode loop and agent adapters' },
  { folder: 'judge', may: ['agent', 'config', 'llm', 'personas', 'protocol', 'sandbox', 'site', 'slots', 'stats', 'vision'], why: 'judges an episode: reads its trajectory' },
  { folder: 'reporters', may: ['agent', 'config', 'llm', 'protocol', 'sandbox', 'slots', 'stats'], why: 'metrics and reports from records' },
  { folder: 'launch', may: ['agent', 'config', 'llm', 'personas', 'sandbox', 'slots'], why: "the run's composition root: checks the settings, dataset and agent at start" },
  { folder: 'fixtures', may: ['agent', 'config', 'judge', 'llm', 'personas', 'protocol', 'reporters', 'sandbox', 'site', 'slots'], why: 'Playwright fixtures: the run wired together' },
  { folder: 'specs', may: ['fixtures', 'protocol', 'slots'], why: 'the persona spec files' },
  { folder: '.', may: ['config', 'launch', 'slots', 'specs'], why: 'playwright.config.ts' },
  { folder: 'cli', may: ['agent', 'config', 'judge', 'launch', 'llm', 'personas', 'reporters', 'site', 'slots', 'stats', 'vision'], why: 'the iwb commands and dataset building' },
  { folder: 'bin', may: ['cli'], why: 'the iwb executable' },
  { folder: 'bench', may: ['cli', 'config', 'protocol', 'reporters', 'site', 'slots', 'stats', 'testkit', 'vision'], why: 'speed benches' },
  {
    folder: 'test',
    may: ['.', 'agent', 'bench', 'cli', 'config', 'fixtures', 'judge', 'launch', 'llm', 'personas', 'protocol', 'reporters', 'sandbox', 'site', 'slots', 'specs', 'stats', 'testkit', 'vision'],
    why: 'tests may reach anything',
  },
];
