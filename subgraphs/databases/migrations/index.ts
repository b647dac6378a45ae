import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121153858_databases_initial } from './Migration20261121153858_databases_initial.js';
import { Migration20261125182719_databases_endpoints } from './Migration20261125182719_databases_endpoints.js';
import { Migration20261125190158_databases_published_readers } from './Migration20261125190158_databases_published_readers.js';

export const databasesMigrations: MigrationObject[] = [
  { name: 'Migration20261121153858_databases_initial', class: Migration20261121153858_databases_initial },
  { name: 'Migration20261125182719_databases_endpoints', class: Migration20261125182719_databases_endpoints },
  { name: 'Migration20261125190158_databases_published_readers', class: Migration20261125190158_databases_published_readers },
];
