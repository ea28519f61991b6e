/**
 * HTML escaping on its own: slot tests escape their sheet's rows (fixtures/slot-sheet.ts) in every worker,
 * and summary.html's module brings the whole report's formatting with it.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Case ids, agent names and findings come from datasets and agents' pages: every report string goes through here. */
export const esc = (s: string | number): string => String(s).replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);
