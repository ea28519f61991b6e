import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { main } from '../cli/main.js';
import { EXIT_CODES } from '../launch/start.js';
import { readJsonlLines } from '../slots/jsonl-lines.js';
import { loadDataset } from '../slots/load.js';
import { playwright } from './bench-support.js';
import { capture } from './cli-capture.js';

const slot = { original_task: 't', expected_result: 'e', target_component: 'C', assertion_type: 'POSITIVE', c_tech: 1 };
const record = (persona: string, fields: Record<string, string> = {}) =>
  JSON.stringify({ id: `T1_${persona}`, original_id: 'T1', persona, instruction: 'a page for my bakery', ground_truth_instruction: 'A bakery page with a teal header.', oracle_slots: [slot], ...fields });

let dir: string;
before(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-dataset-errors-'));
});
after(() => fs.rm(dir, { recursive: true, force: true }));

/** Writes lines, with `bad` (one 0xff byte) put in place of the text `@BAD@`. */
async function write(name: string, lines: string[]): Promise<string> {
  const file = path.join(dir, name);
  const parts = lines.join('\n').split('@BAD@');
  await fs.writeFile(file, Buffer.concat(parts.flatMap((p, i) => (i === 0 ? [Buffer.from(p)] : [Buffer.from([0xff]), Buffer.from(p)]))));
  return file;
}

describe('dataset files are read as bytes first', () => {
  test('invalid UTF-8 in a persona instruction is an error naming the file, line and field', async () => {
    const file = await write('instruction.jsonl', [record('P-MIN'), record('P-RAM', { instruction: 'caf@BAD@ menu' })]);
    const at = record('P-RAM', { instruction: 'caf' }).indexOf('caf') + 4;
    await assert.rejects(loadDataset(file), (e: Error) => {
      assert.equal(e.message, `${file}:2, record T1_P-RAM, field instruction: not valid UTF-8 (byte 0xff at byte ${at} of the line); save the file as UTF-8`);
      return true;
    });
  });

  test('invalid UTF-8 in the gold says so, not that the gold "differs from line 1"', async () => {
    const file = await write('gold.jsonl', [record('P-MIN'), record('P-RAM', { ground_truth_instruction: 'A bakery page @BAD@' })]);
    await assert.rejects(loadDataset(file), /gold\.jsonl:2, record T1_P-RAM, field ground_truth_instruction: not valid UTF-8/);
    const nested = await write('slot.jsonl', [JSON.stringify({ id: 'T1_P-MIN', original_id: 'T1', persona: 'P-MIN', instruction: 'i', ground_truth_instruction: 'g', oracle_slots: [slot, { ...slot, expected_result: '@BAD@' }] })]);
    await assert.rejects(loadDataset(nested), /slot\.jsonl:1, record T1_P-MIN, field oracle_slots\[1\]\.expected_result: not valid UTF-8/);
  });

  test('a line over the limit is refused before it is parsed, naming the line and the limit', async () => {
    const file = await write('long.jsonl', [record('P-MIN'), record('P-RAM', { instruction: 'x'.repeat(2000) })]);
    await assert.rejects(readJsonlLines(file, 1000), /long\.jsonl:2: the line is 2\d\d\d bytes, over the limit of 1000 \(MAX_DATASET_LINE_BYTES\)/);
    assert.equal((await readJsonlLines(file)).length, 2, 'the default limit (1 MiB) takes it');
    const huge = await write('huge.jsonl', [record('P-MIN', { instruction: 'y'.repeat(1024 * 1024) })]);
    await assert.rejects(loadDataset(huge), /huge\.jsonl:1: the line is \d+ bytes, over the limit of 1048576/);
  });

  test('a duplicate id exits with the same code from `iwb dataset check` and from a run', async () => {
    const file = await write('dup.jsonl', [record('P-MIN'), record('P-MIN')]);
    const io = capture();
    assert.equal(await main(['dataset', 'check', file], io), EXIT_CODES.dataset);
    const bad = await write('bad-utf8.jsonl', [record('P-MIN', { instruction: '@BAD@' })]);
    assert.equal(await main(['dataset', 'check', bad], capture()), EXIT_CODES.dataset, 'a file the loader refuses exits as a dataset error');
    const run = await playwright(['test', '--list'], { IWB_DATASET: file, IWB_JUDGE_MODEL: 'm', IWB_JUDGE_BASE_URL: 'http://127.0.0.1:9/v1', IWB_RUN_DIR: path.join(dir, 'runs'), IWB_REPORT_DIR: path.join(dir, 'report') });
    assert.equal(run.status, EXIT_CODES.dataset, run.output.slice(-2000));
    assert.match(run.output, /dup\.jsonl:2, record T1_P-MIN, field id: duplicate case id \(first on line 1\)/);
  });

  test('an agent that cannot start exits with its own code', async () => {
    const run = await playwright(['test', '--list'], { IWB_AGENT: 'opnai', IWB_RUN_DIR: path.join(dir, 'runs'), IWB_REPORT_DIR: path.join(dir, 'report') });
    assert.equal(run.status, EXIT_CODES.agent, run.output.slice(-2000));
    assert.match(run.output, /did you mean openai\?/);
  });
});
