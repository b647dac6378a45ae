import type { DataPlane } from './data-plane.js';

export interface WindowOutcome<T> {
  value: T;
  /** How long the databases refused connections. */
  pauseMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `work` while `databases` have no session: new connections are refused, statements running
 * get up to `waitMs` to finish (idle sessions are ended at once), then whatever is left is ended.
 * Afterwards each database allows connections again unless it refused them before (a suspended
 * endpoint stays suspended).
 */
export async function withExclusiveWindow<T>(plane: DataPlane, databases: string[], waitMs: number, work: () => Promise<T>): Promise<WindowOutcome<T>> {
  const before = await plane.admin.query<{ datname: string; datallowconn: boolean }>(
    'SELECT datname, datallowconn FROM pg_database WHERE datname = ANY($1::text[])',
    [databases],
  );
  const open = before.rows.filter((row) => row.datallowconn).map((row) => row.datname);
  const started = performance.now();
  await plane.setAllowConnections(open, false);
  try {
    plane.dropPools(databases);
    await drainSessions(plane, databases, waitMs);
    const value = await work();
    return { value, pauseMs: Math.round((performance.now() - started) * 10) / 10 };
  } finally {
    await plane.setAllowConnections(open, true);
  }
}

async function drainSessions(plane: DataPlane, databases: string[], waitMs: number): Promise<void> {
  const deadline = performance.now() + waitMs;
  for (;;) {
    const { rows } = await plane.admin.query<{ active: number }>(
      `WITH ended AS (
         SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity
          WHERE datname = ANY($1::text[]) AND pid <> pg_backend_pid() AND (state IS DISTINCT FROM 'active' OR $2::boolean)
       )
       SELECT (SELECT count(*) FROM ended)::int AS ended,
              (SELECT count(*) FROM pg_stat_activity WHERE datname = ANY($1::text[]) AND pid <> pg_backend_pid() AND state = 'active')::int AS active`,
      [databases, performance.now() >= deadline],
    );
    if (rows[0]!.active === 0 || performance.now() >= deadline) break;
    await sleep(10);
  }
  // The last pass ended whatever still ran; sessions being ended are waited for (up to 5 s each).
  await plane.terminateSessions(databases);
}
