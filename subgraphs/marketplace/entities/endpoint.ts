import { randomUUID } from 'node:crypto';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { GraphQLJSON } from 'graphql-scalars';
import { Field, ObjectType } from 'type-graphql';
import { DecimalScalar } from '../types/scalars.js';
import { QueryParam } from './json-shapes.js';

/** One documented upstream path of a publisher (spec: "Endpoint descriptor"). */
@ObjectType('EndpointDescriptor')
@Entity({ tableName: 'market_endpoint' })
@Index({ properties: ['publisherId', 'position'] })
export class PublisherEndpoint {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'uuid' }) publisherId!: string;
  /** Order as the publisher listed them. */
  @Property({ type: 'integer' }) position: number = 0;

  @Field(() => String) @Property({ type: 'text' }) method!: string;
  @Field(() => String) @Property({ type: 'text' }) path!: string;
  @Field(() => String) @Property({ type: 'text' }) description: string = '';
  @Field(() => GraphQLJSON, { nullable: true }) @Property({ type: 'json', nullable: true }) requestBody: unknown = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) requestContentType: string | null = null;
  @Field(() => GraphQLJSON, { nullable: true }) @Property({ type: 'json', nullable: true }) response: unknown = null;
  @Field(() => GraphQLJSON, { nullable: true }) @Property({ type: 'json', nullable: true }) exampleRequest: unknown = null;
  @Field(() => GraphQLJSON, { nullable: true }) @Property({ type: 'json', nullable: true }) exampleResponse: unknown = null;
  @Field(() => GraphQLJSON, { nullable: true }) @Property({ type: 'json', nullable: true }) requiredHeaders: unknown = null;
  @Field(() => GraphQLJSON, { nullable: true }) @Property({ type: 'json', nullable: true }) bodyTemplate: unknown = null;
  @Field(() => [QueryParam], { nullable: true }) @Property({ type: 'json', nullable: true }) queryParams: QueryParam[] | null = null;
  @Field(() => String) @Property({ type: 'text' }) access: string = 'authenticated';
  @Field(() => Boolean) @Property({ type: 'boolean' }) isProtected: boolean = false;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) protectionReason: string | null = null;
  @Field(() => Boolean) @Property({ type: 'boolean' }) isDefault: boolean = false;
  @Field(() => DecimalScalar, { nullable: true, description: 'Per-endpoint price' })
  @Property({ type: 'bigint', nullable: true }) price: bigint | null = null;
}
