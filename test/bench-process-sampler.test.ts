import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { processKind, sampleProcesses } from '../bench/process-sampler.js';

// Command lines as /proc gives them (NUL-separated), copied from a bench run's processes.
const cmd = (...args: string[]) => args.join('\0') + '\0';
const env = 'PATH=/usr/bin\0BENCH_RUN_MARKER=m1\0';

test('bench processes: the runner is not a worker, a worker and a browser process are', () => {
  assert.equal(processKind(env, cmd('node', '/w/node_modules/.bin/playwright', 'test', '--workers=1', '--reporter=json'), 'm1'), 'other');
  assert.equal(processKind(env, cmd('/usr/bin/node', '/w/node_modules/playwright/lib/worker/workerProcessEntry.js'), 'm1'), 'worker');
  assert.equal(processKind(env, cmd('/usr/lib/chromium/chromium-headless-shell', '--type=gpu-process'), 'm1'), 'browser');
  // Another run's processes, or none of a run's, are not counted.
  assert.equal(processKind(env, cmd('/usr/bin/node', '/w/node_modules/playwright/lib/worker/workerProcessEntry.js'), 'm2'), 'other');
  assert.equal(processKind(null, cmd('/usr/lib/chromium/chromium'), 'm1'), 'other');
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
    assert.ok(f.totalPeakMb !== null && f.totalPeakMb > 5 && f.totalPeakMb < 500, `PSS of two node processes: ${f.totalPeakMb} MB`);
  } finally {
    process.kill(-p.pid!, 'SIGKILL');
  }
});
