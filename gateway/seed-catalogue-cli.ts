import { seedCatalogue } from '../subgraphs/marketplace/seed/seed-catalogue.js';
import { runCli } from './cli.js';

/** `npm run seed:catalogue`: adds every catalogue publisher whose slug is still free. */
await runCli(
  async (services, log) => {
    const added = await seedCatalogue(services);
    log.info({ added }, added.length > 0 ? 'catalogue publishers added' : 'catalogue already complete');
    return 0;
  },
  { config: { seedCatalogue: false } },
);
