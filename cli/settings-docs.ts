import { declaredEnv } from '../config/env-registry.js';
import { FILE_VARIABLES } from '../config/file-schema.js';
import { ROLE_FIELDS } from '../config/roles.js';
import { FILE_BLOCKS, SETTINGS_TABLE, type Scope, type SettingRow } from '../config/settings-table.js';

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

/** A Markdown cell: pipes escaped, and angle brackets outside code spans, which would otherwise read as HTML. */
const cell = (text: string): string =>
  text
    .replaceAll('|', '\\|')
    .replaceAll('\n', ' ')
    .split('`')
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/</g, '&lt;').replace(/>/g, '&gt;')))
    .join('`');

/**
 * docs/configuration.md's table (header included): a row per setting and role family, then every other
 * declared variable (what a run hands its workers, the limits' families), so nothing the build reads is
 * missing. The caller imports config/env-check.ts first, which loads every module that declares.
 */
export function settingsMarkdownRows(): string[] {
  const rows = settingDocRows();
  const covered = new Set(rows.map((r) => r.variable));
  const others = declaredEnv().filter((d) => !covered.has(d.name));
  const fileKey = (variable: string) => Object.entries(FILE_VARIABLES).find(([, v]) => v === variable)?.[0];
  return [
    '| variable | config file key | meaning | default |',
    '| --- | --- | --- | --- |',
    ...rows.map((r) => `| \`${r.variable}\` | ${r.fileKey ? `\`${r.fileKey}\`` : ''} | ${cell(r.doc)} | ${cell(r.default)} |`),
    ...others.map((d) => `| \`${d.name}\` | ${fileKey(d.name) ? `\`${fileKey(d.name)}\`` : ''} | ${cell(d.doc)} |  |`),
  ];
}
