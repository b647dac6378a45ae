import type { MigrationObject } from '@mikro-orm/core';
import { Migration } from '@mikro-orm/migrations';

/**
 * The ledger's tables, written by hand: the no-overdraft rule and the transfer shapes are CHECK
 * constraints, so the database refuses a negative wallet even if code forgets to.
 */
export class Migration20261121155300_ledger_initial extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "ledger_account" (
      "id" uuid primary key,
      "kind" text not null,
      "owner_id" uuid null,
      "publisher_id" uuid null,
      "shard" smallint not null default 0,
      "no_overdraft" boolean not null default false,
      "debits_posted" bigint not null default 0,
      "credits_posted" bigint not null default 0,
      "debits_pending" bigint not null default 0,
      "credits_pending" bigint not null default 0,
      "created_at" timestamptz not null default now(),
      constraint "ledger_account_totals_check" check ("debits_posted" >= 0 and "credits_posted" >= 0 and "debits_pending" >= 0 and "credits_pending" >= 0),
      constraint "ledger_account_no_overdraft_check" check (not "no_overdraft" or "credits_posted" - "debits_posted" - "debits_pending" >= 0)
    )`);
    this.addSql(`create index "ledger_account_owner_id_index" on "ledger_account" ("owner_id") where "owner_id" is not null`);
    this.addSql(`create table "ledger_transfer" (
      "id" uuid primary key,
      "idempotency_key" text not null,
      "type" text not null,
      "state" text not null,
      "debit_account_id" uuid not null references "ledger_account" ("id"),
      "credit_account_id" uuid not null references "ledger_account" ("id"),
      "amount" bigint not null,
      "pending_id" uuid null references "ledger_transfer" ("id"),
      "kind" text not null,
      "reference" text null,
      "metadata" jsonb null,
      "debit_balance_after" bigint null,
      "credit_balance_after" bigint null,
      "created_at" timestamptz not null default clock_timestamp(),
      constraint "ledger_transfer_idempotency_key_unique" unique ("idempotency_key"),
      constraint "ledger_transfer_type_check" check ("type" in ('transfer', 'reserve', 'post', 'void')),
      constraint "ledger_transfer_state_check" check ("state" in ('pending', 'posted', 'voided')),
      constraint "ledger_transfer_amount_check" check ("amount" > 0 or ("type" = 'post' and "amount" = 0)),
      constraint "ledger_transfer_accounts_check" check ("debit_account_id" <> "credit_account_id"),
      constraint "ledger_transfer_pending_check" check (("type" in ('post', 'void')) = ("pending_id" is not null))
    )`);
    this.addSql(`create index "ledger_transfer_debit_index" on "ledger_transfer" ("debit_account_id", "created_at" desc)`);
    this.addSql(`create index "ledger_transfer_credit_index" on "ledger_transfer" ("credit_account_id", "created_at" desc)`);
    this.addSql(`create index "ledger_transfer_pending_id_index" on "ledger_transfer" ("pending_id") where "pending_id" is not null`);
  }
}

/**
 * The orphaned-hold sweep reads only holds still pending (a few in flight), not the whole history.
 * Posting a hold leaves the index (its state changes), which costs little: most posts were not
 * heap-only updates anyway (26% were, in the ledger bench), and a posted row adds no entry here.
 */
export class Migration20261122093000_ledger_pending_holds_index extends Migration {
  override async up(): Promise<void> {
    // `if not exists`: on a long ledger history, build it beforehand with CREATE INDEX CONCURRENTLY
    // (README) and this step is a no-op; built here, it blocks ledger writes while it runs.
    this.addSql(`create index if not exists "ledger_transfer_pending_holds_index" on "ledger_transfer" ("created_at") where "type" = 'reserve' and "state" = 'pending'`);
  }
}

/** Included by the wallet subgraph's migration list (the ledger is shared, its tables are `ledger_*`). */
export const ledgerMigrations: MigrationObject[] = [
  { name: 'Migration20261121155300_ledger_initial', class: Migration20261121155300_ledger_initial },
  { name: 'Migration20261122093000_ledger_pending_holds_index', class: Migration20261122093000_ledger_pending_holds_index },
];
