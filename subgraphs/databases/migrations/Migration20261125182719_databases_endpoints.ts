import { Migration } from '@mikro-orm/migrations';

export class Migration20261125182719_databases_endpoints extends Migration {
  override async up(): Promise<void> {
    this.addSql("create table \"db_endpoint\" (\"id\" uuid not null, \"project_id\" uuid not null, \"branch_id\" uuid not null, \"type\" text not null default 'read_write', \"autoscaling_min\" int not null default 1, \"autoscaling_max\" int not null default 1, \"auto_start\" boolean not null default true, \"suspended_at\" timestamptz null, \"last_active_at\" timestamptz not null, \"usage_recorded_until\" timestamptz not null, \"created_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create index \"db_endpoint_project_id_index\" on \"db_endpoint\" (\"project_id\")");
    this.addSql("alter table \"db_endpoint\" add constraint \"db_endpoint_branch_id_unique\" unique (\"branch_id\")");
    this.addSql("create table \"db_endpoint_run\" (\"id\" uuid not null, \"endpoint_id\" uuid not null, \"started_at\" timestamptz not null, \"ended_at\" timestamptz null, primary key (\"id\"))");
    this.addSql("create index \"db_endpoint_run_endpoint_id_index\" on \"db_endpoint_run\" (\"endpoint_id\")");
    this.addSql("alter table \"db_branch\" add \"parent_lsn\" text null, add \"parent_state_at\" timestamptz null, add \"parent_pause_ms\" double precision null");
    this.addSql("alter table \"db_project\" add \"role_name\" text not null, add \"password_sealed\" text not null, add \"default_branch_id\" uuid not null");
    this.addSql("alter table \"db_database\" add \"physical_name\" text not null");
    this.addSql("alter table \"db_database\" add constraint \"db_database_physical_name_unique\" unique (\"physical_name\")");
  }
}
