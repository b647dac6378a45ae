import 'reflect-metadata';
import { loadConfig } from '../shared/config.js';
import { createLogger } from '../shared/logger.js';
import { openServices } from '../shared/platform-services.js';
import { seedCatalogue } from '../subgraphs/marketplace/seed/seed-catalogue.js';
import { subgraphModules } from './subgraphs.js';

/** `npm run seed:catalogue`: adds every catalogue publisher whose slug is still free. */
const config = { ...loadConfig(), seedCatalogue: false };
const log = createLogger(config.logLevel);
const opened = await openServices(config, log, subgraphModules);
try {
  const added = await seedCatalogue(opened.services);
  log.info({ added }, added.length > 0 ? 'catalogue publishers added' : 'catalogue already complete');
} finally {
  await opened.close();
}
