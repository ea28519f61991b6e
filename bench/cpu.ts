/**
 * CPU time of one process from the text of its /proc/<pid>/stat file: user + system (fields 14 and 15), its
 * start time (field 22), which tells a process from a later one given the same pid, and its parent (field 4).
 *
 * Not the kernel's children's totals (cutime, cstime) of the bench process, though they would miss nothing
 * between samples: Debian's Chromium is a shell script that does not exec, and when the run closes its
 * browser the script goes first, so the browser and its renderers are left to init and their CPU never
 * reaches the bench (measured: a quarter of a run's CPU was missing).
 */
export interface ProcessCpu {
  cpuS: number;
  /** Clock ticks after boot at which the process started. */
  started: number;
  parent: number;
}

/** USER_HZ, the unit of /proc times: 100 on every Linux architecture Node runs on. */
const TICKS_PER_S = 100;

export function processCpuFromStat(stat: string): ProcessCpu {
  // The command name (field 2) is in parentheses and may hold spaces or parentheses itself: count from the last ')'.
  const close = stat.lastIndexOf(')');
  const fields = close < 0 ? [] : stat.slice(close + 2).trim().split(/\s+/);
  // fields[0] is field 3 (state): ppid (4), utime (14), stime (15) and starttime (22) are fields[1], [11], [12] and [19].
  const [parent, utime, stime, started] = [fields[1], fields[11], fields[12], fields[19]].map(Number);
  if (fields.length < 20 || ![parent, utime, stime, started].every((n) => Number.isFinite(n))) throw new Error(`not a /proc stat line: ${stat.slice(0, 80)}`);
  return { cpuS: (utime! + stime!) / TICKS_PER_S, started: started!, parent: parent! };
}
