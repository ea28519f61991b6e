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
  { folder: 'site', may: [], why: 'serving and rendering the site under test' },
  { folder: 'config', may: ['protocol', 'stats'], why: 'settings registry (see CONFIG_EXCEPTIONS for its composition-root part)' },
  { folder: 'llm', may: ['config', 'protocol'], why: 'model client, roles, limits, call cache' },
  { folder: 'testkit', may: ['llm'], why: 'fakes (the OpenAI-compatible server) for test/ and bench/; a quirk is named by its row in llm/quirks.ts' },
  { folder: 'sandbox', may: ['config', 'llm'], why: 'bubblewrap sandbox and browser network policy' },
  { folder: 'slots', may: ['protocol', 'stats'], why: 'task and slot schemas, dataset loading' },
  { folder: 'personas', may: ['llm', 'protocol', 'slots', 'stats'], why: 'the four personas and the simulated user' },
  { folder: 'vision', may: ['sandbox', 'site'], why: 'Set-of-Mark, page actions, page guard, PNG, untrusted-content fence' },
  { folder: 'agent', may: ['config', 'llm', 'personas', 'protocol', 'sandbox', 'site', 'slots', 'vision'], why: 'the episode loop and agent adapters' },
  { folder: 'judge', may: ['agent', 'config', 'llm', 'personas', 'protocol', 'sandbox', 'site', 'slots', 'stats', 'vision'], why: 'judges an episode: reads its trajectory' },
  { folder: 'reporters', may: ['agent', 'config', 'llm', 'protocol', 'sandbox', 'slots', 'stats'], why: 'metrics and reports from records' },
  { folder: 'fixtures', may: ['agent', 'config', 'judge', 'llm', 'personas', 'protocol', 'reporters', 'sandbox', 'site', 'slots'], why: 'Playwright fixtures: the run wired together' },
  { folder: 'specs', may: ['fixtures', 'protocol', 'slots'], why: 'the persona spec files' },
  { folder: '.', may: ['config', 'slots', 'specs'], why: 'playwright.config.ts' },
  { folder: 'cli', may: ['agent', 'config', 'judge', 'llm', 'personas', 'reporters', 'site', 'slots', 'stats', 'vision'], why: 'the iwb commands and dataset building' },
  { folder: 'bin', may: ['cli'], why: 'the iwb executable' },
  { folder: 'bench', may: ['cli', 'config', 'protocol', 'reporters', 'site', 'slots', 'stats', 'testkit', 'vision'], why: 'speed benches' },
  {
    folder: 'test',
    may: ['.', 'agent', 'bench', 'cli', 'config', 'fixtures', 'judge', 'llm', 'personas', 'protocol', 'reporters', 'sandbox', 'site', 'slots', 'specs', 'stats', 'testkit', 'vision'],
    why: 'tests may reach anything',
  },
];

/**
 * Named exceptions, by file, for the lead: config/ is both the leaf registry and the run's composition root, and is
 * being restructured on another branch, so its upward imports are recorded here rather than moved. Each should
 * disappear when config/ becomes a leaf and start.ts moves to a composition root above agent/ and judge/.
 */
export const CONFIG_EXCEPTIONS: readonly { file: string; may: readonly string[]; why: string }[] = [
  { file: 'config/env-check.ts', may: ['judge', 'llm'], why: 'checks the judge and LLM role settings' },
  { file: 'config/env.ts', may: ['judge', 'llm'], why: 'the typed env reads judge and role settings' },
  { file: 'config/file-schema.ts', may: ['llm'], why: 'the config-file schema names the LLM roles' },
  { file: 'config/file.ts', may: ['llm'], why: 'the config file maps LLM roles to variables' },
  { file: 'config/profiles.ts', may: ['personas'], why: 'a profile names its persona ids' },
  { file: 'config/settings.ts', may: ['personas'], why: 'settings validate persona ids' },
  { file: 'config/settings-table.ts', may: ['personas'], why: 'the IWB_USER row validates the simulated-user kinds' },
  { file: 'config/settings-docs.ts', may: ['llm'], why: 'the docs table lists the role families of llm/roles.ts' },
  { file: 'config/start.ts', may: ['agent', 'judge', 'llm', 'personas', 'sandbox', 'slots'], why: 'composition root: resolves the run' },
];
