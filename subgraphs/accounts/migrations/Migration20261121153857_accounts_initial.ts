import { Migration } from '@mikro-orm/migrations';

export class Migration20261121153857_accounts_initial extends Migration {
  override async up(): Promise<void> {
    this.addSql("create table \"account_api_key\" (\"id\" uuid not null, \"organization_id\" uuid not null, \"user_id\" uuid not null, \"name\" text not null, \"prefix\" text not null, \"key_hash\" text not null, \"created_at\" timestamptz not null, \"last_used_at\" timestamptz null, \"revoked_at\" timestamptz null, primary key (\"id\"))");
    this.addSql("create index \"account_api_key_organization_id_index\" on \"account_api_key\" (\"organization_id\")");
    this.addSql("create index \"account_api_key_user_id_index\" on \"account_api_key\" (\"user_id\")");
    this.addSql("alter table \"account_api_key\" add constraint \"account_api_key_key_hash_unique\" unique (\"key_hash\")");
    this.addSql("create table \"account_session\" (\"id\" uuid not null, \"user_id\" uuid not null, \"created_at\" timestamptz not null, \"revoked_at\" timestamptz null, \"revoked_reason\" text null, primary key (\"id\"))");
    this.addSql("create index \"account_session_user_id_index\" on \"account_session\" (\"user_id\")");
    this.addSql("create table \"account_email_token\" (\"id\" uuid not null, \"user_id\" uuid not null, \"purpose\" text not null, \"email\" text not null, \"token_hash\" text not null, \"expires_at\" timestamptz not null, \"used_at\" timestamptz null, \"created_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create index \"account_email_token_user_id_index\" on \"account_email_token\" (\"user_id\")");
    this.addSql("alter table \"account_email_token\" add constraint \"account_email_token_token_hash_unique\" unique (\"token_hash\")");
    this.addSql("create table \"account_invitation\" (\"id\" uuid not null, \"organization_id\" uuid not null, \"email\" text not null, \"role\" text not null default 'member', \"invited_by_user_id\" uuid not null, \"token_hash\" text not null, \"expires_at\" timestamptz not null, \"accepted_at\" timestamptz null, \"accepted_by_user_id\" uuid null, \"created_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create index \"account_invitation_organization_id_index\" on \"account_invitation\" (\"organization_id\")");
    this.addSql("alter table \"account_invitation\" add constraint \"account_invitation_token_hash_unique\" unique (\"token_hash\")");
    this.addSql("create table \"account_membership\" (\"id\" uuid not null, \"user_id\" uuid not null, \"organization_id\" uuid not null, \"role\" text not null default 'member', \"created_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create index \"account_membership_user_id_index\" on \"account_membership\" (\"user_id\")");
    this.addSql("create index \"account_membership_organization_id_index\" on \"account_membership\" (\"organization_id\")");
    this.addSql("alter table \"account_membership\" add constraint \"account_membership_user_id_organization_id_unique\" unique (\"user_id\", \"organization_id\")");
    this.addSql("create table \"account_notification\" (\"id\" uuid not null, \"user_id\" uuid not null, \"kind\" text not null, \"title\" text not null, \"body\" text not null default '', \"data\" jsonb null, \"read_at\" timestamptz null, \"created_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create index \"account_notification_user_id_created_at_index\" on \"account_notification\" (\"user_id\", \"created_at\")");
    this.addSql("create table \"account_organization\" (\"id\" uuid not null, \"name\" text not null, \"personal\" boolean not null default false, \"created_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create table \"account_refresh_token\" (\"id\" uuid not null, \"session_id\" uuid not null, \"token_hash\" text not null, \"expires_at\" timestamptz not null, \"used_at\" timestamptz null, \"created_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create index \"account_refresh_token_session_id_index\" on \"account_refresh_token\" (\"session_id\")");
    this.addSql("alter table \"account_refresh_token\" add constraint \"account_refresh_token_token_hash_unique\" unique (\"token_hash\")");
    this.addSql("create table \"account_social_identity\" (\"id\" uuid not null, \"user_id\" uuid not null, \"provider\" text not null, \"subject\" text not null, \"created_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create index \"account_social_identity_user_id_index\" on \"account_social_identity\" (\"user_id\")");
    this.addSql("alter table \"account_social_identity\" add constraint \"account_social_identity_provider_subject_unique\" unique (\"provider\", \"subject\")");
    this.addSql("create table \"account_user\" (\"id\" uuid not null, \"email\" text null, \"name\" text null, \"kind\" text not null default 'user', \"password_hash\" text null, \"email_verified\" boolean not null default false, \"default_organization_id\" uuid not null, \"created_at\" timestamptz not null, \"updated_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("alter table \"account_user\" add constraint \"account_user_email_unique\" unique (\"email\")");
    this.addSql("alter table \"account_email_token\" add constraint \"account_email_token_purpose_check\" check (\"purpose\" in ('verify_email', 'reset_password'))");
    this.addSql("alter table \"account_invitation\" add constraint \"account_invitation_role_check\" check (\"role\" in ('owner', 'admin', 'member'))");
    this.addSql("alter table \"account_membership\" add constraint \"account_membership_role_check\" check (\"role\" in ('owner', 'admin', 'member'))");
    this.addSql("alter table \"account_user\" add constraint \"account_user_kind_check\" check (\"kind\" in ('user', 'agent'))");
  }
}
