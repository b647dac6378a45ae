import { Migration } from '@mikro-orm/migrations';

/** Billing's tables: usage, invoices and their payments, payment methods, publishers' charges, payouts and allowances. */
export class Migration20261125183848_billing_initial extends Migration {
  override async up(): Promise<void> {
    this.addSql("create table \"billing_allowance\" (\"id\" uuid not null, \"payer_user_id\" uuid not null, \"publisher_id\" uuid not null, \"publisher_slug\" text not null, \"monthly_limit_micros\" bigint not null, \"expires_at\" timestamptz null, \"revoked_at\" timestamptz null, \"created_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create index \"billing_allowance_publisher_id_index\" on \"billing_allowance\" (\"publisher_id\")");
    this.addSql("create index \"billing_allowance_payer_user_id_publisher_id_index\" on \"billing_allowance\" (\"payer_user_id\", \"publisher_id\")");
    this.addSql("create table \"billing_charge\" (\"id\" uuid not null, \"publisher_id\" uuid not null, \"payer_user_id\" uuid not null, \"source\" text not null, \"allowance_id\" uuid null, \"amount_micros\" bigint not null, \"fee_micros\" bigint not null, \"refunded_micros\" bigint not null default '0', \"refunded_fee_micros\" bigint not null default '0', \"slashed_micros\" bigint not null default '0', \"refund_count\" int not null default 0, \"slash_count\" int not null default 0, \"status\" text not null default 'succeeded', \"description\" text not null, \"metadata\" jsonb null, \"created_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create index \"billing_charge_publisher_id_index\" on \"billing_charge\" (\"publisher_id\")");
    this.addSql("create index \"billing_charge_payer_user_id_index\" on \"billing_charge\" (\"payer_user_id\")");
    this.addSql("create index \"billing_charge_allowance_id_index\" on \"billing_charge\" (\"allowance_id\")");
    this.addSql("create table \"billing_idempotent_request\" (\"scope\" text not null, \"key\" text not null, \"request_hash\" text not null, \"response\" jsonb null, \"created_at\" timestamptz not null, primary key (\"scope\", \"key\"))");
    this.addSql("create table \"billing_invoice\" (\"id\" uuid not null, \"organization_id\" uuid not null, \"period\" text not null, \"status\" text not null default 'draft', \"total_micros\" bigint not null default '0', \"amount_due_cents\" bigint not null default '0', \"currency\" text not null default 'usd', \"created_at\" timestamptz not null, \"issued_at\" timestamptz null, \"paid_at\" timestamptz null, primary key (\"id\"))");
    this.addSql("create index \"billing_invoice_organization_id_index\" on \"billing_invoice\" (\"organization_id\")");
    this.addSql("alter table \"billing_invoice\" add constraint \"billing_invoice_organization_id_period_unique\" unique (\"organization_id\", \"period\")");
    this.addSql("create table \"billing_invoice_line\" (\"id\" uuid not null, \"invoice_id\" uuid not null, \"position\" smallint not null, \"kind\" text not null, \"description\" text not null, \"item\" text not null, \"publisher_id\" uuid null, \"quantity\" numeric(30,9) not null, \"unit_price_micros\" bigint null, \"amount_micros\" bigint not null, primary key (\"id\"))");
    this.addSql("create index \"billing_invoice_line_invoice_id_index\" on \"billing_invoice_line\" (\"invoice_id\")");
    this.addSql("create table \"billing_invoice_payment\" (\"id\" uuid not null, \"invoice_id\" uuid not null, \"intent_id\" text not null, \"amount_cents\" bigint not null, \"status\" text not null default 'pending', \"failure_reason\" text null, \"last_event_at\" timestamptz null, \"created_at\" timestamptz not null, \"updated_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create index \"billing_invoice_payment_invoice_id_index\" on \"billing_invoice_payment\" (\"invoice_id\")");
    this.addSql("alter table \"billing_invoice_payment\" add constraint \"billing_invoice_payment_intent_id_unique\" unique (\"intent_id\")");
    this.addSql("create table \"billing_invoice_run\" (\"id\" uuid not null, \"period\" text not null, \"created\" int not null, \"finished_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create table \"billing_payment_method\" (\"id\" uuid not null, \"organization_id\" uuid not null, \"added_by_user_id\" uuid not null, \"stripe_payment_method_id\" text not null, \"type\" text not null default 'card', \"brand\" text null, \"last4\" text null, \"exp_month\" smallint null, \"exp_year\" smallint null, \"is_default\" boolean not null default false, \"created_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create index \"billing_payment_method_organization_id_index\" on \"billing_payment_method\" (\"organization_id\")");
    this.addSql("create index \"billing_payment_method_added_by_user_id_index\" on \"billing_payment_method\" (\"added_by_user_id\")");
    this.addSql("alter table \"billing_payment_method\" add constraint \"billing_payment_method_organization_id_stripe_pay_b83d6_unique\" unique (\"organization_id\", \"stripe_payment_method_id\")");
    this.addSql("create table \"billing_payout\" (\"id\" uuid not null, \"publisher_id\" uuid not null, \"amount_micros\" bigint not null, \"status\" text not null default 'pending', \"wallet_address\" text not null, \"network_id\" text null, \"asset\" text null, \"hold_transfer_id\" uuid not null, \"tx_hash\" text null, \"failure_reason\" text null, \"requested_by_user_id\" uuid not null, \"created_at\" timestamptz not null, \"updated_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create index \"billing_payout_publisher_id_index\" on \"billing_payout\" (\"publisher_id\")");
    this.addSql("create table \"billing_stripe_customer\" (\"organization_id\" uuid not null, \"customer_id\" text not null, \"created_at\" timestamptz not null, primary key (\"organization_id\"))");
    this.addSql("alter table \"billing_stripe_customer\" add constraint \"billing_stripe_customer_customer_id_unique\" unique (\"customer_id\")");
    this.addSql("create table \"billing_stripe_event\" (\"event_id\" text not null, \"type\" text not null, \"received_at\" timestamptz not null, primary key (\"event_id\"))");
    this.addSql("create table \"billing_usage_record\" (\"id\" uuid not null, \"idempotency_key\" text not null, \"organization_id\" uuid not null, \"meter\" text not null, \"quantity\" numeric(30,9) not null, \"unit_price_micros\" bigint not null, \"occurred_at\" timestamptz not null, \"created_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("alter table \"billing_usage_record\" add constraint \"billing_usage_record_idempotency_key_unique\" unique (\"idempotency_key\")");
    this.addSql("create index \"billing_usage_record_organization_id_index\" on \"billing_usage_record\" (\"organization_id\")");
    this.addSql("create index \"billing_usage_record_occurred_at_organization_id_index\" on \"billing_usage_record\" (\"occurred_at\", \"organization_id\")");
    // Rules the database keeps even if code forgets them (invisible to the entities' diff).
    this.addSql(`alter table "billing_charge" add constraint "billing_charge_returned_check" check ("refunded_micros" >= 0 and "slashed_micros" >= 0 and "refunded_micros" + "slashed_micros" <= "amount_micros" and "refunded_fee_micros" between 0 and "fee_micros" and "fee_micros" <= "amount_micros")`);
    this.addSql(`alter table "billing_charge" add constraint "billing_charge_status_check" check ("status" in ('succeeded', 'partially_refunded', 'refunded') and "source" in ('credits', 'allowance'))`);
    this.addSql(`alter table "billing_invoice" add constraint "billing_invoice_status_check" check ("status" in ('draft', 'issued', 'paid', 'void', 'uncollectible'))`);
    this.addSql(`alter table "billing_payout" add constraint "billing_payout_status_check" check ("status" in ('pending', 'processing', 'paid', 'failed') and "amount_micros" > 0)`);
    this.addSql(`alter table "billing_allowance" add constraint "billing_allowance_limit_check" check ("monthly_limit_micros" > 0)`);
    this.addSql(`alter table "billing_usage_record" add constraint "billing_usage_record_amount_check" check ("quantity" >= 0 and "unit_price_micros" >= 0)`);
  }
}
