import { Migration } from '@mikro-orm/migrations';

/**
 * A paused publisher (is_active false, its owner may resume it) is told apart from a deleted one:
 * every publisher inactive until now had been deleted.
 */
export class Migration20261125183000_marketplace_publisher_deleted_at extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "market_publisher" add column "deleted_at" timestamptz null');
    this.addSql('update "market_publisher" set "deleted_at" = "updated_at" where "is_active" = false');
  }
}
