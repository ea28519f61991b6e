import { constants } from 'node:os';
import type { ResourceLimits } from './policy.js';

/**
 * Why a sandboxed process ended, in words for the trajectory: a process stopped by one of its limits
 * must read as that, not as an unexplained crash.
 */

const MiB = 1024 * 1024;

export function limitsSummary(l: ResourceLimits): string {
  return `${l.cpuSeconds} s CPU, ${Math.round(l.memoryBytes / MiB)} MiB address space, ${l.processes} processes, ${Math.round(l.fileBytes / MiB)} MiB per file`;
}

function signalOf(exit: number | string): string | undefined {
  if (typeof exit === 'string') return exit.startsWith('SIG') ? exit : undefined;
  // Shells and bwrap report a child killed by signal n as exit 128 + n.
  if (exit > 128 && exit < 160) return Object.entries(constants.signals).find(([, n]) => n === exit - 128)?.[0];
  return undefined;
}

export function describeExit(exit: number | string, stderr: string, limits: ResourceLimits): string {
  const signal = signalOf(exit);
  const text = stderr.slice(-8000);
  let cause: string | undefined;
  if (signal === 'SIGXCPU') cause = `it used up its CPU-time limit of ${limits.cpuSeconds} s`;
  else if (/out of memory|Failed to reserve|allocation failed|Cannot allocate memory|std::bad_alloc|MemoryError/i.test(text)) {
    cause = `it ran out of its memory limit of ${Math.round(limits.memoryBytes / MiB)} MiB (address space)`;
  } else if (/Cannot fork|Resource temporarily unavailable|EAGAIN|fork: retry/i.test(text)) {
    cause = `it reached its limit of ${limits.processes} processes`;
  } else if (signal === 'SIGXFSZ' || /File too large/i.test(text)) cause = `it wrote a file over ${Math.round(limits.fileBytes / MiB)} MiB`;
  if (cause) return `; ${cause} (sandbox limits: ${limitsSummary(limits)})`;
  return signal ? ` (killed by ${signal}; sandbox limits: ${limitsSummary(limits)})` : '';
}
