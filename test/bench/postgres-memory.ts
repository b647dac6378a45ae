import { readdirSync, readFileSync } from 'node:fs';

/**
 * The memory PostgreSQL's processes on this machine hold now: the sum of their proportional set
 * sizes (shared buffers counted once across backends), in MiB. Zero when the server runs elsewhere.
 */
export function postgresMemoryMiB(): number {
  let kib = 0;
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'postgres') continue;
      const pss = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
      kib += Number(pss?.[1] ?? 0);
    } catch {
      // the process ended meanwhile
    }
  }
  return Math.round(kib / 1024);
}

/** Runs `work` while sampling that memory every 50 ms: its peak above what it was before. */
export async function withPeakPostgresMemory<T>(work: () => Promise<T>): Promise<{ result: T; baselineMiB: number; peakMiB: number }> {
  const baselineMiB = postgresMemoryMiB();
  let peakMiB = baselineMiB;
  const timer = setInterval(() => {
    peakMiB = Math.max(peakMiB, postgresMemoryMiB());
  }, 50);
  try {
    const result = await work();
    peakMiB = Math.max(peakMiB, postgresMemoryMiB());
    return { result, baselineMiB, peakMiB };
  } finally {
    clearInterval(timer);
  }
}
