import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { takeTurn } from '../llm/limits.js';
import { tryLock, unlock } from '../protocol/file-lock.js';

/**
 * What a killed process leaves behind must not stop the next run: a lock whose owner is gone, a lock
 * without an owner, a torn pacer file. (The whole-run SIGKILL test is test/kill-resume.test.ts.)
 */

let tmp: string;
before(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-locks-'));
});
after(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

test('the episode lock: a live owner is waited for; a killed owner, or a lock left without an owner, is taken over', async () => {
  const dir = await fs.mkdtemp(path.join(tmp, 'locks-'));
  const lock = path.join(dir, 'case-1');
  assert.equal(await tryLock(lock), true);
  assert.equal(await tryLock(lock), false, 'held by this (live) process');
  assert.deepEqual(await fs.readdir(dir), ['case-1'], 'a failed attempt leaves nothing behind');
  await unlock(lock);

  const gone = spawn(process.execPath, ['-e', '']);
  await new Promise((r) => gone.on('exit', r));
  await fs.writeFile(lock, String(gone.pid));
  assert.equal(await tryLock(lock), false, 'the dead owner\'s lock is cleared on this pass');
  assert.equal(await tryLock(lock), true, 'and taken on the next');
  await unlock(lock);

  // A process killed between making the folder and naming itself (an older harness did both in two steps).
  await fs.mkdir(lock);
  assert.equal(await tryLock(lock), false);
  assert.equal(await tryLock(lock), false, 'a fresh lock without an owner may be being written: waited for');
  const old = new Date(Date.now() - 60_000);
  await fs.utimes(lock, old, old);
  assert.equal(await tryLock(lock), false);
  assert.equal(await tryLock(lock), true, 'an old lock without an owner is taken over');
});

test('the shared per-minute pacer: a pacer file torn and a lock left by a killed process do not stop the next run', async () => {
  const dir = await fs.mkdtemp(path.join(tmp, 'rate-'));
  const file = path.join(dir, 'judge-x.json');
  const gone = spawn(process.execPath, ['-e', '']);
  await new Promise((r) => gone.on('exit', r));
  await fs.writeFile(file, '{"next": 17');
  await fs.writeFile(`${file}.lock`, String(gone.pid));
  const started = Date.now();
  await takeTurn(dir, 'judge-x', 60);
  assert.ok(Date.now() - started < 1000, `taken at once, not after a stale-lock timeout: ${Date.now() - started} ms`);
  const next = (JSON.parse(await fs.readFile(file, 'utf8')) as { next: number }).next;
  assert.ok(next > Date.now() + 500, 'the next request waits a second (60 a minute)');
  assert.deepEqual((await fs.readdir(dir)).sort(), ['judge-x.json'], 'no lock or temporary file left');
});
