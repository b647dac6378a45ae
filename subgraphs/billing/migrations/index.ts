import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261125183848_billing_initial } from './Migration20261125183848_billing_initial.js';

export const billingMigrations: MigrationObject[] = [
  { name: 'Migration20261125183848_billing_initial', class: Migration20261125183848_billing_initial },
];
