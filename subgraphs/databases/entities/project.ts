import { randomUUID } from 'node:crypto';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType('DatabaseProject')
@Entity({ tableName: 'db_project' })
export class DatabaseProject {
  @Field(() => ID)
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Index()
  @Property({ type: 'uuid' })
  organizationId!: string;

  @Field(() => String)
  @Property({ type: 'text' })
  name!: string;

  @Field(() => String)
  @Property({ type: 'text' })
  region!: string;

  @Field(() => Date)
  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
