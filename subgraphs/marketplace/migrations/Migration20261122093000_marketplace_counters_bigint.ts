import { Migration } from '@mikro-orm/migrations';

/** A busy publisher passes 2^31 - 1 calls in weeks: a 32-bit counter would then refuse every write of its usage. */
export class Migration20261122093000_marketplace_counters_bigint extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "market_publisher" alter column "total_queries" type bigint, alter column "unique_agents_served" type bigint');
    this.addSql(`alter table "market_publisher" alter column "total_queries" set default '0', alter column "unique_agents_served" set default '0'`);
  }
}
