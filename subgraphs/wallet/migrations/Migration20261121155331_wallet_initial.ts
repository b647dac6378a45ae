import { Migration } from '@mikro-orm/migrations';

export class Migration20261121155331_wallet_initial extends Migration {
  override async up(): Promise<void> {
    this.addSql("create table \"wallet_recovery_code\" (\"user_id\" uuid not null, \"code_hash\" text not null, \"created_at\" timestamptz not null, primary key (\"user_id\"))");
    this.addSql("alter table \"wallet_recovery_code\" add constraint \"wallet_recovery_code_code_hash_unique\" unique (\"code_hash\")");
    this.addSql("create table \"wallet_referral\" (\"referred_user_id\" uuid not null, \"referrer_user_id\" uuid not null, \"created_at\" timestamptz not null, \"rewarded_at\" timestamptz null, primary key (\"referred_user_id\"))");
    this.addSql("create index \"wallet_referral_referrer_user_id_index\" on \"wallet_referral\" (\"referrer_user_id\")");
    this.addSql("create table \"wallet_referral_code\" (\"user_id\" uuid not null, \"code\" text not null, \"created_at\" timestamptz not null, primary key (\"user_id\"))");
    this.addSql("alter table \"wallet_referral_code\" add constraint \"wallet_referral_code_code_unique\" unique (\"code\")");
  }
}
