import { randomUUID } from 'node:crypto';
import { BigIntType } from '@mikro-orm/core';
import { Entity, Index, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { GraphQLJSON, GraphQLSafeInt } from 'graphql-scalars';
import { Field, ID, ObjectType } from 'type-graphql';

export const HISTORY_OPERATIONS = ['insert', 'update', 'delete'] as const;
export type HistoryOperation = (typeof HISTORY_OPERATIONS)[number];

/**
 * One change of a federated resource. Append-only in the database (a trigger refuses UPDATE,
 * DELETE and TRUNCATE), numbered without gaps per publisher, and chained: `hash` is sha256 of the
 * previous entry's hash and this entry's canonical content.
 */
@ObjectType('FederationHistoryEntry')
@Entity({ tableName: 'fed_history' })
@Unique({ properties: ['publisherId', 'sequence'] })
@Index({ properties: ['createdAt'] })
@Index({ properties: ['resourceType', 'externalId'] })
export class FederationHistoryEntry {
  @Field(() => ID)
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'uuid' }) publisherId!: string;
  @Field(() => GraphQLSafeInt, { description: 'Position in the publisher’s chain: 1, 2, 3… without gaps' })
  @Property({ type: new BigIntType('number') })
  sequence!: number;

  @Field(() => String) @Property({ type: 'text' }) operation!: HistoryOperation;
  @Field(() => ID) @Property({ type: 'uuid' }) resourceId!: string;
  @Field(() => String) @Property({ type: 'text' }) resourceType!: string;
  @Field(() => String) @Property({ type: 'text' }) externalId!: string;
  @Field(() => GraphQLJSON, { nullable: true }) @Property({ type: 'json', nullable: true }) before: unknown = null;
  @Field(() => GraphQLJSON, { nullable: true }) @Property({ type: 'json', nullable: true }) after: unknown = null;
  @Field(() => ID, { description: 'The user or agent who made the change' }) @Property({ type: 'uuid' }) actorId!: string;
  @Field(() => Date) @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
  @Field(() => String) @Property({ type: 'text' }) previousHash!: string;
  @Field(() => String) @Property({ type: 'text' }) hash!: string;
}
