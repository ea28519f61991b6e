import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Builds `tasks/<id>/variants/<name>/` from each built-in task's reference site: a copy with ONE change
 * (a wrong colour, a removed feature, an unrequested feature) and `expected.json`, every slot's true
 * answer on that variant. The changes live here, as data, so a reviewer reads what each variant breaks;
 * rerun after a reference site changes: `node --import tsx judge/calibration/make-variants.ts`. It stops
 * when a change no longer applies. The answers are the truth about the site, decided by reading it, not
 * whatever the probes say: calibration exists to catch the probes being wrong.
 */

interface Edit { file: string; from: string; to: string }
interface Variant { kind: 'wrong colour' | 'wrong style' | 'removed feature' | 'unrequested feature'; fails: string[]; edits: Edit[] }

const TASKS_DIR = fileURLToPath(new URL('../../tasks/', import.meta.url));

export const VARIANTS: Record<string, Record<string, Variant>> = {
  'bakery-menu': {
    'header-sienna': { kind: 'wrong colour', fails: ["s2"], edits: [{ file: "style.css", from: "background-color: saddlebrown;", to: "background-color: sienna;" }] },
    'no-footer': { kind: 'removed feature', fails: ["s6"], edits: [{ file: "index.html", from: "  <footer>\n    <p>Opening hours: Tue–Sun 7am–3pm · Closed Mondays</p>\n  </footer>\n", to: "" }] },
    'add-to-cart': { kind: 'unrequested feature', fails: ["s7"], edits: [{ file: "index.html", from: "<strong>$4.25</strong></p>", to: "<strong>$4.25</strong></p>\n      <button type=\"button\">Add to cart</button>" }] },
  },
  'conference-schedule': {
    'tab-tomato': { kind: 'wrong colour', fails: ["s6"], edits: [{ file: "style.css", from: "[role=\"tab\"][aria-selected=\"true\"] { background-color: coral;", to: "[role=\"tab\"][aria-selected=\"true\"] { background-color: tomato;" }] },
    // Without its script no tab switches, so the highlight cannot follow the chosen day either: two slots fail.
    'no-tab-switching': { kind: 'removed feature', fails: ["s5", "s6"], edits: [{ file: "index.html", from: "  <script src=\"tabs.js\"></script>\n", to: "" }] },
    'ticket-link': { kind: 'unrequested feature', fails: ["s8"], edits: [{ file: "index.html", from: "<p>Two days of talks by the harbour</p>", to: "<p>Two days of talks by the harbour</p>\n    <a href=\"https://tickets.example.com/tidewater\">Buy tickets</a>" }] },
  },
  'expense-tracker': {
    'amount-orange': { kind: 'wrong colour', fails: ["s7"], edits: [{ file: "style.css", from: "td.large { color: firebrick;", to: "td.large { color: darkorange;" }] },
    'no-persistence': { kind: 'removed feature', fails: ["s8"], edits: [{ file: "app.js", from: "  localStorage.setItem(STORAGE_KEY, JSON.stringify(expenses));\n", to: "" }] },
    'notes-field': { kind: 'unrequested feature', fails: ["s9"], edits: [{ file: "index.html", from: "      <button type=\"submit\">Add expense</button>", to: "      <div class=\"field\">\n        <label for=\"notes\">Notes</label>\n        <input id=\"notes\" autocomplete=\"off\">\n      </div>\n      <button type=\"submit\">Add expense</button>" }] },
  },
  'ocean-quiz': {
    'wrong-orange': { kind: 'wrong colour', fails: ["s7"], edits: [{ file: "style.css", from: "label.wrong { color: crimson;", to: "label.wrong { color: orange;" }] },
    // The unanswered check goes; the score then counts an unanswered question as wrong instead of crashing.
    'no-validation': { kind: 'removed feature', fails: ["s3"], edits: [{ file: "quiz.js", from: "  if (chosen.some((c) => !c)) {\n    result.textContent = 'Please answer every question';\n    result.className = 'result warning';\n    return;\n  }\n", to: "" }, { file: "quiz.js", from: "    if (chosen[i].value === right) score++;", to: "    if (chosen[i] && chosen[i].value === right) score++;" }] },
    'name-entry': { kind: 'unrequested feature', fails: ["s9"], edits: [{ file: "index.html", from: "    <form id=\"quiz\" novalidate>", to: "    <label class=\"player\">Your name for the leaderboard <input id=\"player\" autocomplete=\"off\"></label>\n\n    <form id=\"quiz\" novalidate>" }] },
  },
  'reading-list': {
    'no-strike': { kind: 'wrong style', fails: ["s5"], edits: [{ file: "style.css", from: ".book.is-read .title { text-decoration: line-through;", to: ".book.is-read .title { text-decoration: none;" }] },
    'no-read-persistence': { kind: 'removed feature', fails: ["s9"], edits: [{ file: "app.js", from: "      book.read = box.checked;\n      save();\n", to: "      book.read = box.checked;\n" }] },
    'search-box': { kind: 'unrequested feature', fails: ["s10"], edits: [{ file: "index.html", from: "    <ul id=\"books\" class=\"books\"></ul>", to: "    <label>Search books <input type=\"search\" id=\"search\"></label>\n    <ul id=\"books\" class=\"books\"></ul>" }] },
  },
  'tip-calculator': {
    'tip-orange': { kind: 'wrong colour', fails: ["s6"], edits: [{ file: "style.css", from: ".tip[aria-pressed=\"true\"] { background-color: teal;", to: ".tip[aria-pressed=\"true\"] { background-color: darkorange;" }] },
    'no-validation': { kind: 'removed feature', fails: ["s7"], edits: [{ file: "app.js", from: "  const valid = Number.isFinite(count) && count >= 1;", to: "  const valid = true;" }] },
    'currency-select': { kind: 'unrequested feature', fails: ["s9"], edits: [{ file: "index.html", from: "    <label for=\"people\">Number of people</label>", to: "    <label for=\"currency\">Currency</label>\n    <select id=\"currency\"><option>USD</option><option>EUR</option></select>\n\n    <label for=\"people\">Number of people</label>" }] },
  },
};

async function main(): Promise<number> {
  for (const [task, variants] of Object.entries(VARIANTS)) {
    const dir = path.join(TASKS_DIR, task);
    const slots = (JSON.parse(await fs.readFile(path.join(dir, 'task.json'), 'utf8')) as { slots: Array<{ id: string }> }).slots.map((s) => s.id);
    for (const [name, v] of Object.entries(variants)) {
      const unknown = v.fails.filter((s) => !slots.includes(s));
      if (unknown.length) throw new Error(`${task}/${name}: unknown slot(s) ${unknown.join(', ')}`);
      const out = path.join(dir, 'variants', name);
      await fs.rm(out, { recursive: true, force: true });
      await fs.cp(path.join(dir, 'site'), out, { recursive: true });
      for (const e of v.edits) {
        const file = path.join(out, e.file);
        const text = await fs.readFile(file, 'utf8');
        const copies = text.split(e.from).length - 1;
        if (copies !== 1) throw new Error(`${task}/${name}: ${e.file} holds ${copies} copies of the text to change; update this script`);
        await fs.writeFile(file, text.replace(e.from, () => e.to));
      }
      const expected = Object.fromEntries(slots.map((s) => [s, v.fails.includes(s) ? 'fail' : 'pass']));
      await fs.writeFile(path.join(out, 'expected.json'), JSON.stringify(expected, null, 2) + '\n');
      console.log(`${task}/${name} (${v.kind}): fails ${v.fails.join(', ')}`);
    }
  }
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = await main();
