import { promises as fs } from 'node:fs';
import path from 'node:path';

/**
 * Allure 3's report pages load Google's tag manager and send it a report id (the awesome plugin turns its
 * `analyticsEnable` on with no setting to turn it off). A benchmark report stays on the machine that shows
 * it: this removes those scripts from every page of a generated report and adds a policy that lets the
 * page load only from where it is served, so anything else that reaches for the network is refused too.
 */

const TAG_MANAGER = /\s*<script\b[^>]*\bsrc="https?:\/\/www\.googletagmanager\.com\/[^"]*"[^>]*>\s*<\/script>/gi;
// The inline script that configures the tag (window.dataLayer, gtag('config', ...)).
const GTAG_INLINE = /\s*<script\b[^>]*>(?:(?!<\/script>)[\s\S])*?\bgtag\((?:(?!<\/script>)[\s\S])*?<\/script>/gi;
export const ALLURE_POLICY = "default-src 'self' 'unsafe-inline' 'unsafe-eval' data: blob:";
const POLICY_META = `<meta http-equiv="Content-Security-Policy" content="${ALLURE_POLICY}">`;

export function offlineAllureHtml(html: string): string {
  let out = html.replace(TAG_MANAGER, '').replace(GTAG_INLINE, '');
  if (!out.includes(POLICY_META)) out = out.replace(/<head([^>]*)>/i, (m) => `${m}\n    ${POLICY_META}`);
  return out;
}

/** Every origin a page's markup loads from (src, href, url(...) of script, link, img and the like), namespaces aside. */
export function externalOrigins(html: string): string[] {
  const found = new Set<string>();
  for (const m of html.matchAll(/\b(?:src|href)\s*=\s*["']?(https?:)?\/\/([^/"'\s>]+)/gi)) found.add(m[2]!.toLowerCase());
  for (const m of html.matchAll(/url\(\s*["']?(?:https?:)?\/\/([^/"')\s]+)/gi)) found.add(m[1]!.toLowerCase());
  return [...found].sort();
}

/** Rewrites the report folder's pages in place; returns the pages changed. Running it again changes nothing. */
export async function makeAllureOffline(reportDir: string): Promise<string[]> {
  const changed: string[] = [];
  for (const name of await fs.readdir(reportDir)) {
    if (!name.endsWith('.html')) continue;
    const file = path.join(reportDir, name);
    const before = await fs.readFile(file, 'utf8');
    const after = offlineAllureHtml(before);
    if (after !== before) {
      await fs.writeFile(file, after);
      changed.push(file);
    }
  }
  return changed;
}
