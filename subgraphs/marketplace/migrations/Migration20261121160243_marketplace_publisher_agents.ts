import { Migration } from '@mikro-orm/migrations';

export class Migration20261121160243_marketplace_publisher_agents extends Migration {
  override async up(): Promise<void> {
    this.addSql("create table \"market_publisher_agent\" (\"publisher_id\" uuid not null, \"user_id\" uuid not null, \"first_called_at\" timestamptz not null, primary key (\"publisher_id\", \"user_id\"))");
  }
}
