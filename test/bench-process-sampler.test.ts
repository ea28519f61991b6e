import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { ofRun, processKind, sampleProcesses } from '../bench/process-sampler.js';

// Command lines as /proc gives them (NUL-separated), copied from a bench run's processes.
const cmd = (...args: string[]) => args.join('\0') + '\0';
const env = 'PATH=/usr/bin\0BENCH_RUN_MARKER=m1\0';

test('bench processes: the runner is not a worker, a worker and a browser process are', () => {
  assert.equal(processKind(cmd('node', '/w/node_modules/.bin/playwright', 'test', '--workers=1', '--reporter=json')), 'other');
  assert.equal(processKind(cmd('/usr/bin/node', '/w/node_modules/playwright/lib/worker/workerProcessEntry.js')), 'worker');
  assert.equal(processKind(cmd('/usr/lib/chromium/chromium-headless-shell', '--type=gpu-process')), 'browser');
});

test('bench processes: a process is the run\'s by its marker or its parent; another run\'s, or an unreadable one of no run, is not', () => {
  assert.equal(ofRun(env, false, 'm1'), true);
  assert.equal(ofRun(env, false, 'm2'), false, "another run's process");
  assert.equal(ofRun(null, false, 'm1'), false);
  assert.equal(ofRun('PATH=/usr/bin\0', true, 'm1'), true, 'a renderer Chromium started with its own environment');
});

test('bench processes: a child started with an environment of its own (as Chromium starts its renderers) is counted with its parent, CPU and memory', { skip: process.platform !== 'linux' && 'reads /proc' }, async () => {
  const marker = randomUUID();
  const sampler = sampleProcesses(marker, 50);
  // The parent carries the marker; the child it spawns gets an empty environment, spins for 600 ms of its own CPU
  // time (not wall time: on a loaded machine it would get less), says so, and stays alive until killed, so the
  // sampler's last reading (at stop) sees all of it however late this process's timers ran.
  const spin = `while (process.cpuUsage().user + process.cpuUsage().system < 600000); console.log('spun'); setInterval(() => {}, 1000);`;
  const parent = `require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(spin)}], { env: {}, stdio: ['ignore', 'inherit', 'inherit'] }); setInterval(() => {}, 1000);`;
  const p = spawn(process.execPath, ['-e', parent], { env: { ...process.env, BENCH_RUN_MARKER: marker }, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
  try {
    await new Promise<void>((resolve, reject) => {
      p.stdout.on('data', (d: Buffer) => d.toString().includes('spun') && resolve());
      p.on('exit', () => reject(new Error('the parent exited before its child spun')));
    });
    const f = await sampler.stop();
    // The child alone has used 0.6 s; without its parent's mark it would not be counted, and the parent is about 0.1 s.
    assert.ok(f.cpuS !== null && f.cpuS >= 0.6, `CPU counted: ${f.cpuS}`);
    assert.equal(f.workerCpuS, 0);
    assert.equal(f.workerProcesses, 0);
    assert.ok(f.totalPeakMb !== null && f.totalPeakMb > 5 && f.totalPeakMb < 500, `PSS of two node processes: ${f.totalPeakMb} MB`);
  } finally {
    process.kill(-p.pid!, 'SIGKILL');
  }
});

test('bench processes: a sampler that saw no process of its run reports unknown CPU, not zero', { skip: process.platform !== 'linux' && 'reads /proc' }, async () => {
  const f = await sampleProcesses(randomUUID(), 50).stop();
  assert.deepEqual([f.cpuS, f.workerCpuS, f.workerProcesses, f.totalPeakMb], [null, null, null, null]);
});
