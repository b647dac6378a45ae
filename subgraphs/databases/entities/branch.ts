import { randomUUID } from 'node:crypto';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Field, Float, ID, ObjectType } from 'type-graphql';

@ObjectType('DatabaseBranch')
@Entity({ tableName: 'db_branch' })
export class DatabaseBranch {
  @Field(() => ID)
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Field(() => ID)
  @Index()
  @Property({ type: 'uuid' })
  projectId!: string;

  @Field(() => String)
  @Property({ type: 'text' })
  name!: string;

  @Field(() => ID, { nullable: true })
  @Property({ type: 'uuid', nullable: true })
  parentBranchId: string | null = null;

  @Field(() => Date)
  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  /** The parent's write-ahead-log position when the copy was taken (the data plane's LSN). */
  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  parentLsn: string | null = null;

  /** When the copy of the parent was taken: the branch holds the parent's data as of then. */
  @Field(() => Date, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  parentStateAt: Date | null = null;

  /** How long the parent refused connections while it was copied. */
  @Field(() => Float, { nullable: true })
  @Property({ type: 'double', nullable: true })
  parentPauseMs: number | null = null;
}
