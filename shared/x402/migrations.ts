import type { MigrationObject } from '@mikro-orm/core';
import { Migration } from '@mikro-orm/migrations';

/** Every x402 authorization accepted, keyed by (network, payer, nonce) so each is accepted once. */
export class Migration20261121155301_x402_payments extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "x402_payment" (
      "network" text not null,
      "payer" text not null,
      "nonce" text not null,
      "amount" bigint not null,
      "pay_to" text not null,
      "resource" text not null,
      "status" text not null,
      "transaction" text null,
      "created_at" timestamptz not null,
      "settled_at" timestamptz null,
      primary key ("network", "payer", "nonce"),
      constraint "x402_payment_status_check" check ("status" in ('verified', 'settled', 'failed'))
    )`);
  }
}

/**
 * A payment settled on-chain whose ledger booking failed is `settled_unbooked`; one the facilitator
 * gave no clear answer about is `settle_unknown` (it may have gone on-chain). Both keep the
 * transfers they still need (idempotency keys included), so they can be found and booked exactly.
 */
export class Migration20261122011500_x402_unbooked_payments extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "x402_payment" drop constraint "x402_payment_status_check"`);
    this.addSql(`alter table "x402_payment" add constraint "x402_payment_status_check" check ("status" in ('verified', 'settled', 'settled_unbooked', 'settle_unknown', 'failed'))`);
    this.addSql(`alter table "x402_payment" add column "unbooked_transfers" jsonb null`);
  }
}

/** The booking sweep and the operator's list find unfinished payments without reading every payment. */
export class Migration20261122090000_x402_unsettled_index extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "x402_payment_unsettled" on "x402_payment" ("settled_at") where "status" in ('settled_unbooked', 'settle_unknown')`);
  }
}

export const x402Migrations: MigrationObject[] = [
  { name: 'Migration20261121155301_x402_payments', class: Migration20261121155301_x402_payments },
  { name: 'Migration20261122011500_x402_unbooked_payments', class: Migration20261122011500_x402_unbooked_payments },
  { name: 'Migration20261122090000_x402_unsettled_index', class: Migration20261122090000_x402_unsettled_index },
];
