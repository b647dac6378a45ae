import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261125183340_eval_initial } from './Migration20261125183340_eval_initial.js';

export const evalMigrations: MigrationObject[] = [
  { name: 'Migration20261125183340_eval_initial', class: Migration20261125183340_eval_initial },
];
