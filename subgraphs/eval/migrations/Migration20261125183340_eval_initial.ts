import { Migration } from '@mikro-orm/migrations';

export class Migration20261125183340_eval_initial extends Migration {
  override async up(): Promise<void> {
    this.addSql("create table \"eval_cell\" (\"organization_id\" uuid not null, \"task_type\" text not null, \"model_id\" text not null, \"signals\" bigint not null default '0', \"success_sum\" double precision not null default 0, \"clients\" int not null default 0, \"latency_count\" bigint not null default '0', \"latency_sum\" double precision not null default 0, \"cost_count\" bigint not null default '0', \"cost_sum_micros\" bigint not null default '0', \"decayed_signals\" double precision not null default 0, \"decayed_success\" double precision not null default 0, \"decayed_at\" timestamptz not null, \"first_signal_at\" timestamptz not null, \"last_signal_at\" timestamptz not null, primary key (\"organization_id\", \"task_type\", \"model_id\"))");
    this.addSql("create index \"eval_cell_task_type_model_id_index\" on \"eval_cell\" (\"task_type\", \"model_id\")");
    this.addSql("create table \"eval_cell_client\" (\"organization_id\" uuid not null, \"task_type\" text not null, \"model_id\" text not null, \"client_id\" uuid not null, primary key (\"organization_id\", \"task_type\", \"model_id\", \"client_id\"))");
    this.addSql("create table \"eval_publisher_cell\" (\"task_type\" text not null, \"publisher_slug\" text not null, \"signals\" bigint not null default '0', \"success_sum\" double precision not null default 0, primary key (\"task_type\", \"publisher_slug\"))");
    this.addSql("create table \"eval_signal\" (\"id\" bigserial primary key, \"organization_id\" uuid not null, \"client_id\" uuid not null, \"signal_id\" text null, \"task_type\" text not null, \"model_id\" text not null, \"success\" double precision not null, \"latency_ms\" double precision null, \"cost_micros\" bigint null, \"tokens\" bigint null, \"publisher_slug\" text null, \"created_at\" timestamptz not null)");
    this.addSql("alter table \"eval_signal\" add constraint \"eval_signal_organization_id_signal_id_unique\" unique (\"organization_id\", \"signal_id\")");
    this.addSql('alter table eval_signal add constraint eval_signal_success_check check (success between 0 and 1)');
    this.addSql('alter table eval_cell add constraint eval_cell_counts_check check (signals >= 0 and clients >= 0 and decayed_signals >= 0 and success_sum >= 0)');
    // A weight's factor after `elapsed` with the given half-life; capped at 2^-1000 (no float underflow error), 1 for negative spans.
    this.addSql(`create function eval_decay(elapsed interval, half_life_seconds float8) returns float8
      language sql immutable parallel safe as $$ select power(0.5, least(1000, greatest(0, extract(epoch from elapsed)::float8) / half_life_seconds)) $$`);
  }
}
