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

  /** The login role on the data plane that owns every database of the project. */
  @Field(() => String)
  @Property({ type: 'text' })
  roleName!: string;

  /** The role's password, sealed with the platform SecretBox; shown at creation and through an explicit reveal. */
  @Property({ type: 'text' })
  passwordSealed!: string;

  @Field(() => ID)
  @Property({ type: 'uuid' })
  defaultBranchId!: string;
}
