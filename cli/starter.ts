import { promises as fs } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { declaredEnv } from '../config/env-registry.js';
import '../config/env-check.js';
import { FILE_VARIABLES, type IwbConfig } from '../config/file-schema.js';
import { BUILTIN_TASKS_DIR } from '../slots/builtin-loader.js';

const TEMPLATE = fileURLToPath(new URL('../config/starter.iwb.config.ts.txt', import.meta.url));

type SettingKey = Exclude<keyof IwbConfig, 'judge' | 'roles'>;

/**
 * An example value per top-level key; what each means comes from the variable's declareEnv row, so the
 * starter and `iwb config --vars` say the same. Typed over the schema's keys: a new key fails to compile
 * until it has an example. Those in ACTIVE are written as values, the rest commented out.
 */
const EXAMPLES: Record<SettingKey, string> = {
  dataset: "'builtin'",
  agent: "'reference'",
  agentName: "'my-agent'",
  profile: "'iwb'",
  runDir: "'.iwb/runs'",
  reportDir: "'iwb-report'",
  chromium: "'/path/to/chrome'",
  workers: '2',
  stepCap: '20',
  agentStepTimeoutMs: '300000',
  prices: "{ 'gpt-4o': { promptPerMTok: 2.5, completionPerMTok: 10 } }",
};
const ACTIVE: ReadonlySet<SettingKey> = new Set(['dataset', 'agent']);

/** The commented starter `iwb init` writes: the template with one entry per setting, described from the registry. */
export async function starterText(): Promise<string> {
  const docs = new Map(declaredEnv().map((d) => [d.name, d.doc]));
  const tasks = await builtinTaskCount();
  const lines: string[] = [];
  for (const [key, example] of Object.entries(EXAMPLES) as [SettingKey, string][]) {
    const variable = FILE_VARIABLES[key]!;
    let doc = docs.get(variable) ?? '';
    if (key === 'dataset') doc += ` (builtin: ${tasks} tasks with deterministic probes, offline; the public release has no probes and needs a judge model)`;
    lines.push(`  // ${variable}: ${doc}`, `  ${ACTIVE.has(key) ? '' : '// '}${key}: ${example},`, '');
  }
  return (await fs.readFile(TEMPLATE, 'utf8')).replace('{{settings}}', lines.join('\n'));
}

async function builtinTaskCount(): Promise<number> {
  const entries = await fs.readdir(BUILTIN_TASKS_DIR, { withFileTypes: true });
  const withTask = await Promise.all(entries.filter((e) => e.isDirectory()).map((e) => fs.access(`${BUILTIN_TASKS_DIR}${e.name}/task.json`).then(() => true, () => false)));
  return withTask.filter(Boolean).length;
}
