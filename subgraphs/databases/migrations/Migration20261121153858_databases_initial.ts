import { Migration } from '@mikro-orm/migrations';

export class Migration20261121153858_databases_initial extends Migration {
  override async up(): Promise<void> {
    this.addSql("create table \"db_branch\" (\"id\" uuid not null, \"project_id\" uuid not null, \"name\" text not null, \"parent_branch_id\" uuid null, \"created_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create index \"db_branch_project_id_index\" on \"db_branch\" (\"project_id\")");
    this.addSql("create table \"db_project\" (\"id\" uuid not null, \"organization_id\" uuid not null, \"name\" text not null, \"region\" text not null, \"created_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create index \"db_project_organization_id_index\" on \"db_project\" (\"organization_id\")");
    this.addSql("create table \"db_database\" (\"id\" uuid not null, \"branch_id\" uuid not null, \"name\" text not null, \"owner_name\" text not null default 'owner', \"created_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create index \"db_database_branch_id_index\" on \"db_database\" (\"branch_id\")");
  }
}
