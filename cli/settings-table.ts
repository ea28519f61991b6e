import '../config/env-check.js';
import { declaredEnv } from '../config/env-registry.js';
import { FILE_VARIABLES } from '../config/file-schema.js';

/**
 * docs/configuration.md's variable table, generated from the variables the readers declare (declareEnv) and
 * the config file's key map, so a variable added in code appears in the docs by `npx iwb docs settings --write`
 * and a test fails until it does. config/env-check.ts is imported for its side effect: it loads every module
 * that declares, so the registry is complete whichever entry point asked.
 */

/** The config file key a variable (or family) stands for: `roles.<role>.model` for `IWB_<ROLE>_MODEL`. */
function fileKeyOf(variable: string): string | undefined {
  const placeholder = /<([A-Z]+)>/.exec(variable);
  if (!placeholder) return Object.entries(FILE_VARIABLES).find(([, v]) => v === variable)?.[0];
  const pattern = new RegExp(`^${variable.replace(placeholder[0], '([A-Z]+)')}$`);
  for (const [key, v] of Object.entries(FILE_VARIABLES)) {
    const value = pattern.exec(v)?.[1];
    // A family's keys differ only in the placeholder's segment, so one of them stands for all.
    if (value) return key.replace(`.${value.toLowerCase()}.`, `.<${placeholder[1]!.toLowerCase()}>.`);
  }
  return undefined;
}

/** A Markdown cell: pipes escaped, and angle brackets outside code spans, which would otherwise read as HTML. */
const cell = (s: string) =>
  s
    .replace(/\|/g, '\\|')
    .split('`')
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/</g, '&lt;').replace(/>/g, '&gt;')))
    .join('`');

export function settingsMarkdown(): string {
  return [
    '| variable | config file key | meaning |',
    '| --- | --- | --- |',
    ...declaredEnv().map((d) => {
      const key = fileKeyOf(d.name);
      return `| \`${d.name}\` | ${key ? `\`${key}\`` : ''} | ${cell(d.doc)} |`;
    }),
  ].join('\n');
}
