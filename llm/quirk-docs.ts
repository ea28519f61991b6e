import { QUIRK_NAMES, QUIRKS } from './quirks.js';

/** The provider-quirk table of docs/providers.md, generated from llm/quirks.ts so the page cannot drift from the client. */
export function quirksMarkdown(): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const rows = QUIRK_NAMES.map((name) => {
    const q = QUIRKS[name];
    const [file, fn] = q.handledBy.split('#');
    return `| \`${name}\` | ${cell(q.providers)} | ${cell(q.shows)} | ${cell(q.client)} | [\`${fn}\`](../${file}) |`;
  });
  return ['| quirk (fake server option) | seen with | how it shows | what the client does | handled by |', '| --- | --- | --- | --- | --- |', ...rows].join('\n');
}
