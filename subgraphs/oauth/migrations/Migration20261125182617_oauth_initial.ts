import { Migration } from '@mikro-orm/migrations';

export class Migration20261125182617_oauth_initial extends Migration {
  override async up(): Promise<void> {
    this.addSql("create table \"oauth_authorization_state\" (\"id\" uuid not null, \"state_hash\" text not null, \"user_id\" uuid not null, \"provider_id\" uuid not null, \"redirect_uri\" text not null, \"callback_uri\" text not null, \"code_verifier_sealed\" text not null, \"nonce\" text null, \"expires_at\" timestamptz not null, \"used_at\" timestamptz null, \"created_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("alter table \"oauth_authorization_state\" add constraint \"oauth_authorization_state_state_hash_unique\" unique (\"state_hash\")");
    this.addSql("create index \"oauth_authorization_state_expires_at_index\" on \"oauth_authorization_state\" (\"expires_at\")");
    this.addSql("create table \"oauth_connection\" (\"id\" uuid not null, \"user_id\" uuid not null, \"provider_id\" uuid not null, \"account_id\" text not null, \"access_token_sealed\" text not null, \"refresh_token_sealed\" text null, \"expires_at\" timestamptz null, \"scopes\" text[] not null, \"is_default\" boolean not null default false, \"status\" text not null default 'active', \"created_at\" timestamptz not null, \"updated_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create index \"oauth_connection_user_id_index\" on \"oauth_connection\" (\"user_id\")");
    this.addSql("create index \"oauth_connection_provider_id_index\" on \"oauth_connection\" (\"provider_id\")");
    this.addSql("alter table \"oauth_connection\" add constraint \"oauth_connection_user_id_provider_id_account_id_unique\" unique (\"user_id\", \"provider_id\", \"account_id\")");
    this.addSql("create table \"oauth_provider\" (\"id\" uuid not null, \"organization_id\" uuid null, \"slug\" text not null, \"name\" text not null, \"issuer\" text null, \"authorize_url\" text null, \"token_url\" text null, \"userinfo_url\" text null, \"revoke_url\" text null, \"client_id\" text not null, \"client_secret_sealed\" text not null, \"scopes\" text[] not null, \"is_active\" boolean not null default true, \"created_at\" timestamptz not null, \"updated_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create index \"oauth_provider_organization_id_index\" on \"oauth_provider\" (\"organization_id\")");
    this.addSql("alter table \"oauth_connection\" add constraint \"oauth_connection_status_check\" check (\"status\" in ('active', 'needs_reauthorization'))");
    // Hand-written: at most one default connection per user and provider; slugs unique among
    // global providers and within each organization.
    this.addSql("create unique index \"oauth_connection_one_default\" on \"oauth_connection\" (\"user_id\", \"provider_id\") where \"is_default\"");
    this.addSql("create unique index \"oauth_provider_global_slug\" on \"oauth_provider\" (\"slug\") where \"organization_id\" is null");
    this.addSql("create unique index \"oauth_provider_organization_slug\" on \"oauth_provider\" (\"organization_id\", \"slug\") where \"organization_id\" is not null");
  }
}
