import { randomUUID } from 'node:crypto';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Field, ID, ObjectType } from 'type-graphql';

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
}
