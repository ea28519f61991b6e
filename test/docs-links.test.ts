import assert from 'node:assert/strict';
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '..');

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors a Markdown page offers: one per heading, outside fenced code. */
function anchorsOf(markdown: string): Set<string> {
  const outsideFences = markdown.replace(/```[\s\S]*?```/g, '');
  return new Set([...outsideFences.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1]!)));
}

/** Relative links of a page (not http, not mailto), outside fenced code and code spans. */
function linksOf(markdown: string): string[] {
  const text = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((l) => !/^[a-z]+:/.test(l));
}

test('docs: the anchor of a heading is GitHub\'s', () => {
  assert.equal(anchorOf('The leak test: `npx iwb personas leak-test`'), 'the-leak-test-npx-iwb-personas-leak-test');
  assert.equal(anchorOf("Why a failing agent's run is slower"), 'why-a-failing-agents-run-is-slower');
  assert.equal(anchorOf('Slot sharing: one mechanism'), 'slot-sharing-one-mechanism');
});

/** The README was cut into docs/: every link of the README and of each page reaches a file, and its heading. */
test('docs: every relative link in README.md, docs/ and examples/README.md reaches a file and, with #, a heading in it', async () => {
  const pages = ['README.md', 'examples/README.md', ...(await fs.readdir(path.join(ROOT, 'docs'))).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  assert.ok(pages.length > 10, `the docs were read: ${pages.join(', ')}`);
  const broken: string[] = [];
  for (const page of pages) {
    const text = await fs.readFile(path.join(ROOT, page), 'utf8');
    for (const link of linksOf(text)) {
      const [file, anchor] = link.split('#') as [string, string | undefined];
      const target = file === '' ? path.join(ROOT, page) : path.resolve(path.dirname(path.join(ROOT, page)), file);
      if (!existsSync(target)) {
        broken.push(`${page}: ${link} (no file ${path.relative(ROOT, target)})`);
        continue;
      }
      if (anchor && target.endsWith('.md') && !anchorsOf(await fs.readFile(target, 'utf8')).has(anchor)) broken.push(`${page}: ${link} (no heading #${anchor})`);
    }
  }
  assert.deepEqual(broken, []);
});
