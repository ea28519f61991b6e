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

const BEGIN = /<!-- quirks:begin[^>]*-->\n/;
const END = '<!-- quirks:end -->';

/** docs/providers.md with its generated table brought up to date (the text between the two markers). */
export function withQuirksTable(page: string): string {
  const begin = BEGIN.exec(page);
  const end = page.indexOf(END);
  if (!begin || end < begin.index) throw new Error('docs/providers.md: the markers <!-- quirks:begin --> ... <!-- quirks:end --> are missing');
  return `${page.slice(0, begin.index + begin[0].length)}${quirksMarkdown()}\n${page.slice(end)}`;
}
