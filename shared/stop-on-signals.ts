import { exitAfterLogs, type Logger } from './logger.js';

const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

/**
 * Stops the process cleanly on SIGTERM, SIGINT or SIGHUP: once `starting` has started, its close()
 * runs and the process exits 0. Installed before start, so an early signal is not lost. A second
 * signal, a failed close, or a stop that outlives twice the grace (requests draining, then
 * background work settling) plus `restMs` (30 s unless given) for the rest (a database that stopped
 * answering) exits 1 at once: a stop never hangs for good.
 */
export function stopOnSignals(starting: Promise<{ close(): Promise<void> }>, log: Logger, shutdownGraceMs: number, restMs = 30_000): void {
  const deadlineMs = 2 * shutdownGraceMs + restMs;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      log.warn({ signal }, 'signalled again while stopping: exiting now');
      return exitAfterLogs(log, 1);
    }
    stopping = true;
    log.info({ signal }, 'stopping');
    // Not unref'd: a close() that hangs with nothing else left running must still end in 1, not 0.
    setTimeout(() => {
      log.error({ deadlineMs }, 'stopping took too long: exiting now');
      exitAfterLogs(log, 1);
    }, deadlineMs);
    try {
      await (await starting).close();
    } catch (error) {
      log.error({ err: error }, 'stopping failed');
      return exitAfterLogs(log, 1);
    }
    log.info('stopped');
    exitAfterLogs(log, 0);
  };
  for (const signal of SIGNALS) process.on(signal, () => void stop(signal));
}
