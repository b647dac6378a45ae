import { AppError } from '../../../shared/errors.js';

const running = new Map<string, number>();

/**
 * At most `limit` SQL requests of one project at a time in this process (each holds a data-plane
 * session); one more is refused with 429 rather than queued behind a slow statement.
 */
export async function withProjectSlot<T>(projectId: string, limit: number, work: () => Promise<T>): Promise<T> {
  const now = running.get(projectId) ?? 0;
  if (now >= limit) {
    throw new AppError(429, 'sql_concurrency_limit', `At most ${limit} SQL requests of a project run at once; retry when one has finished`, { retryAfterSeconds: 1 });
  }
  running.set(projectId, now + 1);
  try {
    return await work();
  } finally {
    const left = (running.get(projectId) ?? 1) - 1;
    if (left === 0) running.delete(projectId);
    else running.set(projectId, left);
  }
}
