import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { judgedSlotsDir, readJudgedSlot, writeJudgedSlot } from '../judge/judged-slots.js';
import { ANNOTATION } from '../protocol/annotations.js';

/**
 * A slot judged ahead by its case's first slot test is read back by its own test, often in another worker.
 * The record must come back whole with its screenshots, stay apart per run, case and trial, and a torn one
 * must send the slot to be judged again rather than be trusted.
 */
test('judged slots: a record comes back whole with its screenshots; another run, case or trial has its own; a torn one is judged again', async () => {
  const outputDir = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-judged-'));
  try {
    const dir = judgedSlotsDir({ outputDir, runId: 'run-1', caseId: 'tip-calculator_P-MIN', trial: 0 });
    assert.notEqual(dir, judgedSlotsDir({ outputDir, runId: 'run-2', caseId: 'tip-calculator_P-MIN', trial: 0 }));
    assert.notEqual(dir, judgedSlotsDir({ outputDir, runId: 'run-1', caseId: 'tip-calculator_P-MIN', trial: 1 }));
    for (const [runId, caseId] of [['../../etc', 'a/b'], ['..', '.'], ['', '...']] as const) {
      const inside = judgedSlotsDir({ outputDir, runId, caseId, trial: 0 });
      assert.equal(path.relative(path.join(outputDir, '.iwb-judged'), inside).split(path.sep).length, 3, `ids cannot leave their folder: ${inside}`);
    }

    const verdict = { status: 'fail' as const, evidence: 'no total shown', judge: 'llm-som:m', steps: [{ action: 'click', detail: '[3]' }], durationMs: 812 };
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const written = await writeJudgedSlot(dir, { slotId: 's2', verdict, step: 'judge judges s2: the total', steps: ['click [3]'], annotations: [{ type: ANNOTATION.judging, description: '{"by":"s1","ms":900}' }], pngs: [{ name: 'judge s2 step 1', body: png }] });
    const read = await readJudgedSlot(dir, 's2');
    assert.deepEqual(read, written);
    assert.deepEqual(read!.verdict, verdict);
    assert.deepEqual(await fs.readFile(read!.attachments[0]!.path), png);
    assert.equal(await readJudgedSlot(dir, 's3'), null, 'a slot not judged ahead has no record');

    const file = path.join(dir, 's2.json');
    const text = await fs.readFile(file, 'utf8');
    await fs.writeFile(file, text.slice(0, 40));
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (m: string) => void warnings.push(m);
    try {
      assert.equal(await readJudgedSlot(dir, 's2'), null);
    } finally {
      console.warn = warn;
    }
    assert.match(warnings.join('\n'), /s2\.json: not valid JSON.*judging the slot again/);
  } finally {
    await fs.rm(outputDir, { recursive: true, force: true });
  }
});
