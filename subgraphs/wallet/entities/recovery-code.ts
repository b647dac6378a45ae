import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** The account's current recovery code, as a SHA-256 digest; a new request replaces it. */
@Entity({ tableName: 'wallet_recovery_code' })
export class RecoveryCodeRecord {
  @PrimaryKey({ type: 'uuid' })
  userId!: string;

  @Property({ type: 'text', unique: true })
  codeHash!: string;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
