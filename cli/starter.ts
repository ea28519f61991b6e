import { promises as fs } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SETTINGS_TABLE, type SettingRow } from '../config/settings-table.js';
import { BUILTIN_TASKS_DIR } from '../slots/builtin-loader.js';

const TEMPLATE = fileURLToPath(new URL('../config/starter.iwb.config.ts.txt', import.meta.url));

/**
 * The commented starter `iwb init` writes: the template with one entry per top-level file key, in the
 * settings table's order, with its row's doc and example; those a row marks `active` are written as values,
 * the rest commented out.
 */
export async function starterText(): Promise<string> {
  const tasks = await builtinTaskCount();
  const lines: string[] = [];
  for (const row of Object.values(SETTINGS_TABLE) as SettingRow[]) {
    if (!row.file) continue;
    let doc = row.doc;
    if (row.env === SETTINGS_TABLE.dataset.env) doc += ` (builtin: ${tasks} tasks with deterministic probes, offline; the public release has no probes and needs a judge model)`;
    lines.push(`  // ${row.env}: ${doc}`, `  ${row.file.active ? '' : '// '}${row.file.key}: ${row.file.example},`, '');
  }
  return (await fs.readFile(TEMPLATE, 'utf8')).replace('{{settings}}', lines.join('\n'));
}

async function builtinTaskCount(): Promise<number> {
  const entries = await fs.readdir(BUILTIN_TASKS_DIR, { withFileTypes: true });
  const withTask = await Promise.all(entries.filter((e) => e.isDirectory()).map((e) => fs.access(`${BUILTIN_TASKS_DIR}${e.name}/task.json`).then(() => true, () => false)));
  return withTask.filter(Boolean).length;
}
