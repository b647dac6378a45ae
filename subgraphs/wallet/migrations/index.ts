import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121155331_wallet_initial } from './Migration20261121155331_wallet_initial.js';

export const walletMigrations: MigrationObject[] = [
  { name: 'Migration20261121155331_wallet_initial', class: Migration20261121155331_wallet_initial },
];
