import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261125182617_oauth_initial } from './Migration20261125182617_oauth_initial.js';

export const oauthMigrations: MigrationObject[] = [
  { name: 'Migration20261125182617_oauth_initial', class: Migration20261125182617_oauth_initial },
];
