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

/**
 * What resolving and counting need: when the authorization expires (before that, an unanswered
 * settlement may still execute), the publisher's share of a call payment (its revenue once
 * booked), and when booking last failed (so a payment that keeps failing is swept last). The
 * operator's list also shows `verified` payments a crash left behind.
 */
export class Migration20261122100000_x402_payment_details extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "x402_payment" add column "valid_before" timestamptz null, add column "publisher_id" uuid null, add column "publisher_share" bigint null, add column "booking_tried_at" timestamptz null`);
    this.addSql(`drop index "x402_payment_unsettled"`);
    this.addSql(`create index "x402_payment_open" on "x402_payment" ("created_at") where "status" in ('verified', 'settled_unbooked', 'settle_unknown')`);
  }
}

/**
 * When the chain was last asked about a payment left unanswered, and what it said: the check goes
 * round them all, least recently asked first, and leaves those a person must look at alone (see
 * claimDuePayments in chain-resolve.ts).
 */
export class Migration20261122120000_x402_chain_checks extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "x402_payment" add column "chain_checked_at" timestamptz null, add column "chain_finding" text null`);
    this.addSql(`alter table "x402_payment" add constraint "x402_payment_chain_finding_check" check ("chain_finding" in ('paid', 'failed', 'waiting', 'unclear'))`);
  }
}

/** Until when a sweep has claimed a payment it is asking the chain about, so that replicas sweeping at once do not both ask. */
export class Migration20261123090000_x402_chain_claims extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "x402_payment" add column "chain_claimed_until" timestamptz null`);
  }
}

export const x402Migrations: MigrationObject[] = [
  { name: 'Migration20261121155301_x402_payments', class: Migration20261121155301_x402_payments },
  { name: 'Migration20261122011500_x402_unbooked_payments', class: Migration20261122011500_x402_unbooked_payments },
  { name: 'Migration20261122090000_x402_unsettled_index', class: Migration20261122090000_x402_unsettled_index },
  { name: 'Migration20261122100000_x402_payment_details', class: Migration20261122100000_x402_payment_details },
  { name: 'Migration20261122120000_x402_chain_checks', class: Migration20261122120000_x402_chain_checks },
  { name: 'Migration20261123090000_x402_chain_claims', class: Migration20261123090000_x402_chain_claims },
];
