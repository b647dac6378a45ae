/** Whether `promise` settled, either way, within `ms`; the timer goes as soon as it does. */
export async function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(resolve, ms, false)));
  try {
    return await Promise.race([promise.then(() => true, () => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs `work` every minute, never twice at once; the returned stop waits for a run in progress (at most `waitMs`, if given). */
export function everyMinute(work: () => Promise<void>, onError: (error: unknown) => void): (waitMs?: number) => Promise<void> {
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    running ??= work()
      .catch(onError)
      .finally(() => (running = null));
  }, 60_000);
  timer.unref();
  return async (waitMs) => {
    clearInterval(timer);
    if (!running) return;
    if (waitMs === undefined) await running;
    else await settledWithin(running, waitMs);
  };
}
