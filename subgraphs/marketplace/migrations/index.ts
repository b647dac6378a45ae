import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121155322_marketplace_initial } from './Migration20261121155322_marketplace_initial.js';
import { Migration20261121155400_marketplace_search } from './Migration20261121155400_marketplace_search.js';
import { Migration20261121160243_marketplace_publisher_agents } from './Migration20261121160243_marketplace_publisher_agents.js';
import { Migration20261122093000_marketplace_counters_bigint } from './Migration20261122093000_marketplace_counters_bigint.js';
import { Migration20261125183000_marketplace_publisher_deleted_at } from './Migration20261125183000_marketplace_publisher_deleted_at.js';

export const marketplaceMigrations: MigrationObject[] = [
  { name: 'Migration20261121155322_marketplace_initial', class: Migration20261121155322_marketplace_initial },
  { name: 'Migration20261121155400_marketplace_search', class: Migration20261121155400_marketplace_search },
  { name: 'Migration20261121160243_marketplace_publisher_agents', class: Migration20261121160243_marketplace_publisher_agents },
  { name: 'Migration20261122093000_marketplace_counters_bigint', class: Migration20261122093000_marketplace_counters_bigint },
  { name: 'Migration20261125183000_marketplace_publisher_deleted_at', class: Migration20261125183000_marketplace_publisher_deleted_at },
];
