import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121153857_accounts_initial } from './Migration20261121153857_accounts_initial.js';

export const accountsMigrations: MigrationObject[] = [
  { name: 'Migration20261121153857_accounts_initial', class: Migration20261121153857_accounts_initial },
];
