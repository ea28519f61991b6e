import { ROLE_FIELDS } from '../llm/roles.js';
import { FILE_BLOCKS, SETTINGS_TABLE, type Scope, type SettingRow } from './settings-table.js';

/** One line of the configuration reference, as the docs generator (cli/docs.ts) renders it. */
export interface SettingDocRow {
  variable: string;
  /** Its dotted key in iwb.config.ts / .json, if the file may set it. */
  fileKey: string | undefined;
  doc: string;
  default: string;
  scope: Scope;
}

/** Every row of the settings table and the role families, in table order: the docs table's one source. */
export function settingDocRows(): SettingDocRow[] {
  const blocks: [string, Record<string, SettingRow>][] = [['', SETTINGS_TABLE], ...Object.entries(FILE_BLOCKS).map(([name, t]): [string, Record<string, SettingRow>] => [`${name}.`, t])];
  const rows = blocks.flatMap(([prefix, table]) =>
    Object.values(table).map((r) => ({ variable: r.env, fileKey: r.file ? `${prefix}${r.file.key}` : undefined, doc: r.doc, default: r.default, scope: r.scope })),
  );
  for (const [field, r] of Object.entries(ROLE_FIELDS)) {
    rows.push({ variable: `IWB_<ROLE>_${r.suffix}`, fileKey: 'file' in r ? `roles.<role>.${field}` : undefined, doc: r.doc, default: 'fallback' in r ? `\`${r.fallback}\`` : '', scope: 'worker' });
  }
  return rows;
}

const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** The docs table's rows as markdown (header included), one per setting. */
export function settingsMarkdownRows(): string[] {
  return [
    '| Variable | File key | Meaning | Default |',
    '|---|---|---|---|',
    ...settingDocRows().map((r) => `| \`${r.variable}\` | ${r.fileKey ? `\`${r.fileKey}\`` : ''} | ${cell(r.doc)} | ${cell(r.default)} |`),
  ];
}
