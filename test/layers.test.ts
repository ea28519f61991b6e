import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileGraph, folderCycles, folderGraph, importEdges, sourceFiles, type ImportEdge } from './import-graph.js';
import { LAYERS } from './layers.js';

const order = new Map(LAYERS.map((l, i) => [l.folder, i]));

function allowed(e: ImportEdge): boolean {
  if (e.from === e.to) return true;
  return LAYERS.find((l) => l.folder === e.from)?.may.includes(e.to) ?? false;
}

const where = (e: ImportEdge) => `${e.file}:${e.line} imports ${e.specifier} (${e.from} -> ${e.to})`;

test('the layer table only points down, so the allowed graph has no cycle', () => {
  assert.equal(order.size, LAYERS.length, 'a folder is listed twice');
  for (const l of LAYERS) {
    for (const m of l.may) {
      assert.ok(order.has(m), `test/layers.ts: ${l.folder} may import ${m}, which is not a listed folder`);
      assert.ok(order.get(m)! < order.get(l.folder)!, `test/layers.ts: ${l.folder} may import ${m}, listed above it`);
    }
  }
});

test('every folder in the import graph has a row in the layer table', () => {
  const missing = [...folderGraph(importEdges()).keys()].filter((f) => !order.has(f));
  assert.deepEqual(missing, [], `folders without a row in test/layers.ts: ${missing.join(', ')}`);
});

test('every relative import in the tree is allowed by test/layers.ts', () => {
  const bad = importEdges().filter((e) => !allowed(e));
  assert.deepEqual(bad.map(where), [], `imports that break the layers:\n${bad.map(where).join('\n')}`);
});

test('the folder graph of the whole tree has no cycle, and no import is excused', () => {
  assert.deepEqual(folderCycles(folderGraph(importEdges())), []);
});

test('no two files import each other around a circle, type-only imports included', () => {
  const graph = fileGraph(importEdges());
  assert.ok(graph.get('agent/step-tally.ts')?.has('agent/types.ts'), 'the file graph resolves .js specifiers to .ts files');
  // A type both sides need goes to a file of its own or to the lower side (config/profile.ts for the bundles).
  assert.deepEqual(folderCycles(graph), []);
  const planted = [
    { file: 'a/x.ts', line: 1, specifier: './y.js', from: 'a', to: 'a' },
    { file: 'a/y.ts', line: 1, specifier: './x.js', from: 'a', to: 'a' },
  ];
  assert.deepEqual(folderCycles(fileGraph(planted, ['a/x.ts', 'a/y.ts'])), [['a/x.ts', 'a/y.ts']]);
});

test('the checker sees an upward import, with its file and line', () => {
  const planted: ImportEdge = { file: 'slots/schema.ts', line: 3, specifier: '../judge/prompt.js', from: 'slots', to: 'judge' };
  assert.equal(allowed(planted), false);
  assert.equal(where(planted), 'slots/schema.ts:3 imports ../judge/prompt.js (slots -> judge)');
  assert.deepEqual(folderCycles(folderGraph([planted, { ...planted, from: 'judge', to: 'slots' }])), [['judge', 'slots']]);
});

test("the checker reads the harness's own site/ folder, not the built-in tasks' reference sites", () => {
  const files = sourceFiles();
  assert.ok(files.includes('site/render.ts'), 'site/ is layered like every other folder');
  assert.ok(!files.some((f) => /^tasks\/[^/]+\/site\//.test(f)), "a task's reference site is browser code, not the harness");
});
