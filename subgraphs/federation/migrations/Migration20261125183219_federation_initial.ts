import { Migration } from '@mikro-orm/migrations';

export class Migration20261125183219_federation_initial extends Migration {
  override async up(): Promise<void> {
    this.addSql("create table \"fed_resource\" (\"id\" uuid not null, \"publisher_id\" uuid not null, \"resource_type\" text not null, \"external_id\" text not null, \"status\" text not null default 'active', \"title\" text null, \"url\" text null, \"data\" jsonb not null, \"created_at\" timestamptz not null, \"updated_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create index \"fed_resource_status_created_at_index\" on \"fed_resource\" (\"status\", \"created_at\")");
    this.addSql("create index \"fed_resource_resource_type_external_id_index\" on \"fed_resource\" (\"resource_type\", \"external_id\")");
    this.addSql("alter table \"fed_resource\" add constraint \"fed_resource_publisher_id_resource_type_external_id_unique\" unique (\"publisher_id\", \"resource_type\", \"external_id\")");
    this.addSql("create table \"fed_chain_head\" (\"publisher_id\" uuid not null, \"last_sequence\" bigint not null default '0', \"last_hash\" text not null default '', primary key (\"publisher_id\"))");
    this.addSql("create table \"fed_history\" (\"id\" uuid not null, \"publisher_id\" uuid not null, \"sequence\" bigint not null, \"operation\" text not null, \"resource_id\" uuid not null, \"resource_type\" text not null, \"external_id\" text not null, \"before\" jsonb null, \"after\" jsonb null, \"actor_id\" uuid not null, \"created_at\" timestamptz not null, \"previous_hash\" text not null, \"hash\" text not null, primary key (\"id\"))");
    this.addSql("create index \"fed_history_resource_type_external_id_index\" on \"fed_history\" (\"resource_type\", \"external_id\")");
    this.addSql("create index \"fed_history_created_at_index\" on \"fed_history\" (\"created_at\")");
    this.addSql("alter table \"fed_history\" add constraint \"fed_history_publisher_id_sequence_unique\" unique (\"publisher_id\", \"sequence\")");
    this.addSql(`alter table fed_history add constraint fed_history_operation_check check (operation in ('insert', 'update', 'delete'))`);
    this.addSql('alter table fed_history add constraint fed_history_sequence_check check (sequence >= 1)');
    // Append-only for every role, the application's included: history rows are never changed or removed.
    // ENABLE ALWAYS keeps the triggers on under session_replication_role = replica; only the table's
    // owner can switch them off (ALTER TABLE ... DISABLE TRIGGER), so run the platform as a role that does not own it.
    this.addSql(`create function fed_history_refuse_change() returns trigger language plpgsql as $$
      begin
        raise exception 'federation history is append-only: % refused', tg_op using errcode = 'insufficient_privilege';
      end $$`);
    this.addSql('create trigger fed_history_append_only before update or delete on fed_history for each row execute function fed_history_refuse_change()');
    this.addSql('create trigger fed_history_no_truncate before truncate on fed_history for each statement execute function fed_history_refuse_change()');
    this.addSql('alter table fed_history enable always trigger fed_history_append_only');
    this.addSql('alter table fed_history enable always trigger fed_history_no_truncate');
  }
}
