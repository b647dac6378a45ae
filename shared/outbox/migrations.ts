import type { MigrationObject } from '@mikro-orm/core';
import { Migration } from '@mikro-orm/migrations';

/**
 * The transactional outbox of domain events (shared/events.ts): an event is written in the same
 * transaction as the change that caused it, with one delivery per module subscribed to its type;
 * a module's process takes a delivery (SKIP LOCKED), runs the module's handlers, records the event
 * as processed and drops the delivery, all in one transaction, so each effect happens exactly once.
 */
export class Migration20261125184000_outbox_events extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "outbox_subscription" (
      "event_type" text not null,
      "consumer" text not null,
      "created_at" timestamptz not null default now(),
      primary key ("event_type", "consumer")
    )`);
    this.addSql(`create table "outbox_event" (
      "id" uuid not null primary key,
      "type" text not null,
      "payload" jsonb not null,
      "created_at" timestamptz not null default now()
    )`);
    this.addSql(`create index "outbox_event_created_at" on "outbox_event" ("created_at")`);
    this.addSql(`create table "outbox_delivery" (
      "event_id" uuid not null references "outbox_event" ("id") on delete cascade,
      "consumer" text not null,
      "attempts" int not null default 0,
      "available_at" timestamptz not null default now(),
      "last_error" text null,
      primary key ("event_id", "consumer")
    )`);
    this.addSql(`create index "outbox_delivery_due" on "outbox_delivery" ("consumer", "available_at")`);
    this.addSql(`create table "outbox_processed" (
      "event_id" uuid not null,
      "consumer" text not null,
      "processed_at" timestamptz not null default now(),
      primary key ("event_id", "consumer")
    )`);
    this.addSql(`create index "outbox_processed_at" on "outbox_processed" ("processed_at")`);
  }
}

export const outboxMigrations: MigrationObject[] = [{ name: 'Migration20261125184000_outbox_events', class: Migration20261125184000_outbox_events }];
