import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { z } from 'zod';
import { inPage } from '../site/in-page.js';
import { foldForMatching } from '../vision/neutralise.js';

/**
 * Detects pages that talk to the judge rather than to their user. A deterministic check, so the flag is
 * the same on every rerun and does not depend on the judge model noticing; the patterns are data
 * (prompts/injection-patterns.json) so a reviewer can read and extend them.
 */

const PatternsSchema = z.object({ why: z.string(), patterns: z.array(z.string()).min(1) });
const file = fileURLToPath(new URL('./prompts/injection-patterns.json', import.meta.url));
const PATTERNS = PatternsSchema.parse(JSON.parse(readFileSync(file, 'utf8'))).patterns.map((p) => new RegExp(p, 'iu'));

export interface InjectionFinding {
  /** The matching excerpt, trimmed: evidence for the report. */
  excerpt: string;
}

export function findInjection(text: string): InjectionFinding | null {
  // Folded (lower case, look-alikes as Latin, no invisible characters), so `Ignоre` with a Cyrillic o or a
  // zero-width space inside a word matches as the plain spelling; the excerpt is quoted folded.
  const flat = foldForMatching(text);
  for (const re of PATTERNS) {
    const m = re.exec(flat);
    if (m) {
      const start = Math.max(0, m.index - 20);
      return { excerpt: flat.slice(start, m.index + m[0].length + 20).trim().slice(0, 200) };
    }
  }
  return null;
}

/** Text a site can aim at the judge without showing it: hidden nodes, alt/title/aria attributes, meta tags. */
export async function hiddenText(page: Page): Promise<string> {
  return page
    .evaluate(
      inPage(() => {
        const parts: string[] = [document.documentElement.textContent ?? ''];
        for (const el of Array.from(document.querySelectorAll('[alt],[title],[aria-label],[placeholder],meta[content]'))) {
          for (const a of ['alt', 'title', 'aria-label', 'placeholder', 'content']) {
            const v = el.getAttribute(a);
            if (v) parts.push(v);
          }
        }
        return parts.join('\n').slice(0, 200_000);
      }),
      undefined,
    )
    .catch(() => '');
}
