/**
 * The project's import graph, folder by folder: every relative import, re-export and dynamic `import()` of every
 * source file (node_modules and package imports are not ours to layer). test/layers.test.ts checks it against the
 * allow-list of test/layers.ts; `node --import tsx test/import-graph.ts` prints the folder cycles and the arrows
 * that break the allow-list, the before/after figures of issue #33.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Generated, installed or fetched trees, at any depth. */
const SKIPPED_DIRS = new Set(['node_modules', '.git', '.iwb', 'iwb-report', 'playwright-report', 'test-results', 'allure-results', 'allure-report', 'out']);
/**
 * A built-in task's reference site (tasks/<id>/site: browser code, not the harness). Only there: skipping every
 * folder named `site` once hid the harness's own site/ folder, and its upward imports, from the layer check.
 */
const skipped = (relativeDir: string, name: string) => SKIPPED_DIRS.has(name) || name.startsWith('.') || /^tasks\/[^/]+\/site$/.test(relativeDir);
const SOURCE = /\.(ts|mts|js|mjs)$/;
/** `import x from '…'`, `export … from '…'`, `import '…'`, `import('…')`: the specifier is the quoted string. */
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)(['"])([^'"]+)\1/gm;

export interface ImportEdge {
  file: string; // project-relative, posix
  line: number;
  specifier: string;
  from: string; // folder of the importing file ('.' for the root)
  to: string; // folder of the imported file
}

/** The top-level folder a project-relative path belongs to; root files such as playwright.config.ts are '.'. */
export function folderOf(relative: string): string {
  const parts = relative.split('/');
  return parts.length > 1 ? parts[0]! : '.';
}

export function sourceFiles(dir = ROOT): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      const sub = path.join(dir, entry.name);
      if (!skipped(path.relative(ROOT, sub).split(path.sep).join('/'), entry.name)) out.push(...sourceFiles(sub));
    } else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      out.push(path.relative(ROOT, path.join(dir, entry.name)).split(path.sep).join('/'));
    }
  }
  return out.sort();
}

/** Every relative import of one file, with its line, resolved to the folder it lands in. */
export function importsOf(file: string): ImportEdge[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  const edges: ImportEdge[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[2]!;
    if (!specifier.startsWith('.')) continue;
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
    const line = text.slice(0, match.index).split('\n').length;
    edges.push({ file, line, specifier, from: folderOf(file), to: folderOf(target) });
  }
  return edges;
}

export function importEdges(): ImportEdge[] {
  return sourceFiles().flatMap(importsOf);
}

/** The source file an import lands on: a `.js` specifier names the `.ts` file beside it when there is no `.js`. */
function landsOn(e: ImportEdge, files: ReadonlySet<string>): string | null {
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(e.file), e.specifier));
  for (const candidate of [target, target.replace(/\.js$/, '.ts'), target.replace(/\.mjs$/, '.mts'), `${target}.ts`, `${target}/index.ts`]) {
    if (files.has(candidate)) return candidate;
  }
  return null;
}

/** File → the files it imports, type-only imports included (a type cycle still ties two files into one). */
export function fileGraph(edges: readonly ImportEdge[], files: readonly string[] = sourceFiles()): Map<string, Set<string>> {
  const known = new Set(files);
  const graph = new Map<string, Set<string>>();
  for (const e of edges) {
    const to = landsOn(e, known);
    if (!graph.has(e.file)) graph.set(e.file, new Set());
    if (to && to !== e.file) graph.get(e.file)!.add(to);
  }
  return graph;
}

/** Folder → the folders it imports (self-imports left out). */
export function folderGraph(edges: readonly ImportEdge[]): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const e of edges) {
    if (!graph.has(e.from)) graph.set(e.from, new Set());
    if (!graph.has(e.to)) graph.set(e.to, new Set());
    if (e.from !== e.to) graph.get(e.from)!.add(e.to);
  }
  return graph;
}

/** The strongly connected components with more than one node (Tarjan): each is one cycle, of folders or of files. */
export function folderCycles(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return cycles;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const graph = folderGraph(importEdges());
  for (const [from, tos] of [...graph].sort()) console.log(`${from} -> ${[...tos].sort().join(' ')}`);
  const cycles = folderCycles(graph);
  console.log(`\n${cycles.length} folder cycle(s)`);
  for (const c of cycles) console.log(`  ${c.length}: ${c.join(' ')}`);
}
