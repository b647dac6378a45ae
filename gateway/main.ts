import 'reflect-metadata';
import { loadConfigOrExit } from '../shared/config.js';
import { createLogger } from '../shared/logger.js';
import { stopOnSignals } from '../shared/stop-on-signals.js';
import { assertKnownSubgraphs, startPlatform } from './platform.js';

/** `npm start`: the whole platform, stopped cleanly (embedded database included) on SIGTERM, SIGINT or SIGHUP. */
async function main() {
  const config = loadConfigOrExit(process.env, assertKnownSubgraphs);
  const log = createLogger(config.logLevel);
  const starting = startPlatform(config, log);
  stopOnSignals(starting, log, config.shutdownGraceMs);
  await starting;
}

await main();
