import { randomUUID } from 'node:crypto';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType('ManagedDatabase', { description: 'A database on a project branch' })
@Entity({ tableName: 'db_database' })
export class ManagedDatabase {
  @Field(() => ID)
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Field(() => ID)
  @Index()
  @Property({ type: 'uuid' })
  branchId!: string;

  @Field(() => String)
  @Property({ type: 'text' })
  name!: string;

  @Field(() => String)
  @Property({ type: 'text' })
  ownerName: string = 'owner';

  @Field(() => Date)
  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  /** Its name on the data plane (what a PostgreSQL client connects to); generated, unique on the server. */
  @Field(() => String)
  @Property({ type: 'text', unique: true })
  physicalName!: string;

  /** The SELECT-only login role that paid publisher queries run as; made when the database is first published. */
  @Property({ type: 'text', nullable: true })
  readerRole: string | null = null;

  @Property({ type: 'text', nullable: true })
  readerPasswordSealed: string | null = null;
}
