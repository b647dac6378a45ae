import { GraphQLJSON, GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Ctx, Field, InputType, Int, Mutation, ObjectType, Resolver } from 'type-graphql';
import type { RequestContext } from '../../../../shared/context.js';
import { DecimalScalar } from '../../types/scalars.js';
import { callPublisherBuffered } from '../buffered-call.js';

@InputType()
class CallPublisherInput {
  @Field(() => String) slug!: string;
  @Field(() => String, { nullable: true, description: 'GET (default), POST, PUT, PATCH or DELETE' }) method?: string | null;
  @Field(() => String, { nullable: true, description: 'Upstream path, default "/"' }) path?: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Query parameters' }) query?: Record<string, unknown> | null;
  @Field(() => GraphQLJSON, { nullable: true, description: 'JSON body (not for GET)' }) body?: unknown;
  @Field(() => DecimalScalar, { nullable: true, description: 'The most this call may cost (USD): refused with 409 price_above_limit, nothing charged, when it could cost more' })
  maxCharge?: string | null;
}

@ObjectType()
class PublisherCallResult {
  @Field(() => Int) status!: number;
  @Field(() => String, { nullable: true }) contentType!: string | null;
  @Field(() => String, { description: 'The upstream body as text' }) body!: string;
  @Field(() => GraphQLJSON, { nullable: true, description: 'The body parsed, when it is JSON' }) json!: unknown;
  @Field(() => String, { nullable: true }) chargeId!: string | null;
  @Field(() => String, { nullable: true }) chargeAmount!: string | null;
  @Field(() => String, { nullable: true }) balanceRemaining!: string | null;
}

@Resolver()
export class CallPublisherResolver {
  @Mutation(() => PublisherCallResult, { description: 'A paid call through the proxy, answered whole (the REST data plane streams)' })
  callPublisher(@Arg('input', () => CallPublisherInput) input: CallPublisherInput, @Ctx() context: RequestContext) {
    return callPublisherBuffered(context, input);
  }
}
