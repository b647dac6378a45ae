import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261125183219_federation_initial } from './Migration20261125183219_federation_initial.js';

export const federationMigrations: MigrationObject[] = [
  { name: 'Migration20261125183219_federation_initial', class: Migration20261125183219_federation_initial },
];
