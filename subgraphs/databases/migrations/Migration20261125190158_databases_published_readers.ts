import { Migration } from '@mikro-orm/migrations';

export class Migration20261125190158_databases_published_readers extends Migration {
  override async up(): Promise<void> {
    this.addSql("alter table \"db_database\" add \"reader_role\" text null, add \"reader_password_sealed\" text null");
  }
}
