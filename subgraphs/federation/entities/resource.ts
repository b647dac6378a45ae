import { randomUUID } from 'node:crypto';
import { Entity, Index, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { GraphQLJSON } from 'graphql-scalars';
import { Field, ID, ObjectType } from 'type-graphql';

/** A resource a publisher registers for cross-publisher discovery; one per (publisher, type, external id). */
@ObjectType('FederatedResource')
@Entity({ tableName: 'fed_resource' })
@Unique({ properties: ['publisherId', 'resourceType', 'externalId'] })
@Index({ properties: ['resourceType', 'externalId'] })
@Index({ properties: ['status', 'createdAt'] })
export class FederatedResource {
  @Field(() => ID)
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  /** The marketplace publisher that owns it; its name and slug are resolved through the supergraph. */
  @Property({ type: 'uuid' })
  publisherId!: string;

  @Field(() => String) @Property({ type: 'text' }) resourceType!: string;
  @Field(() => String) @Property({ type: 'text' }) externalId!: string;
  @Field(() => String) @Property({ type: 'text' }) status: string = 'active';
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) title: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) url: string | null = null;
  @Field(() => GraphQLJSON) @Property({ type: 'json' }) data: unknown = {};
  @Field(() => Date) @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
  @Field(() => Date) @Property({ type: 'timestamptz' }) updatedAt: Date = new Date();
}
