import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../../shared/context.js';
import { PublisherEndpoint } from '../entities/endpoint.js';
import { PublisherPricing } from '../entities/pricing.js';
import { Publisher } from '../entities/publisher.js';
import { endpointsByPublisher, pricingByPublisher } from '../loaders.js';
import { createPublisher, deactivatePublisher, updatePublisher } from '../services/manage-publishers.js';
import { getPublisher, getPublisherById, listPublishers } from '../services/list-publishers.js';
import { suggestPublishers } from '../services/suggest-publishers.js';
import { PublisherInput, PublisherListInput } from '../types/inputs.js';
import { PublisherSuggestion } from '../types/results.js';

@Resolver(() => Publisher)
export class PublisherResolver {
  @Query(() => [Publisher], { description: 'Active publishers; searched and ranked when `search` is given' })
  publishers(@Arg('input', () => PublisherListInput, { nullable: true }) input: PublisherListInput | null, @Ctx() context: RequestContext) {
    return listPublishers(context, input ?? {});
  }

  @Query(() => [PublisherSuggestion])
  suggestPublishers(@Arg('query', () => String, { nullable: true }) query: string | null, @Ctx() context: RequestContext) {
    return suggestPublishers(context, query);
  }

  @Query(() => Publisher)
  publisher(@Arg('slug', () => String) slug: string, @Ctx() context: RequestContext) {
    return getPublisher(context, slug);
  }

  @Query(() => Publisher, { description: 'A publisher by its id, active or paused (404 when unknown or deleted)' })
  publisherById(@Arg('id', () => ID) id: string, @Ctx() context: RequestContext) {
    return getPublisherById(context, id);
  }

  @Mutation(() => Publisher, { description: "Creates a publisher owned by the caller's organization" })
  createPublisher(@Arg('input', () => PublisherInput) input: PublisherInput, @Ctx() context: RequestContext) {
    return createPublisher(context, input);
  }

  @Mutation(() => Publisher)
  updatePublisher(@Arg('slug', () => String) slug: string, @Arg('input', () => PublisherInput) input: PublisherInput, @Ctx() context: RequestContext) {
    return updatePublisher(context, slug, input);
  }

  @Mutation(() => Publisher, { description: 'Soft delete: is_active becomes false' })
  deactivatePublisher(@Arg('slug', () => String) slug: string, @Ctx() context: RequestContext) {
    return deactivatePublisher(context, slug);
  }

  @FieldResolver(() => [PublisherEndpoint], { nullable: true, description: 'null for database publishers' })
  endpoints(@Root() publisher: Publisher, @Ctx() context: RequestContext) {
    return publisher.hasEndpoints ? endpointsByPublisher(context).load(publisher.id) : null;
  }

  @FieldResolver(() => [PublisherPricing], { nullable: true })
  pricing(@Root() publisher: Publisher, @Ctx() context: RequestContext) {
    return pricingByPublisher(context).load(publisher.id);
  }
}
