import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121153858_databases_initial } from './Migration20261121153858_databases_initial.js';

export const databasesMigrations: MigrationObject[] = [
  { name: 'Migration20261121153858_databases_initial', class: Migration20261121153858_databases_initial },
];
