import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** An Idempotency-Key a caller sent: the hash of what it came with, and the first answer, replayed. */
@Entity({ tableName: 'billing_idempotent_request' })
export class IdempotentRequest {
  /** The caller and operation the key belongs to: keys of different callers never meet. */
  @PrimaryKey({ type: 'text' })
  scope!: string;

  @PrimaryKey({ type: 'text' })
  key!: string;

  @Property({ type: 'text' })
  requestHash!: string;

  /** Null while the first request is still running. */
  @Property({ type: 'json', nullable: true })
  response: unknown = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
