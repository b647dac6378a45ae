import { readFileSync } from 'node:fs';

/** /proc reports CPU time in clock ticks of 1/100 s on Linux. */
const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) a process has used so far, or null where /proc is not available. */
export function cpuSecondsOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are the 14th and 15th fields.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}
