import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../../shared/context.js';
import { FederatedResource } from '../entities/resource.js';
import { deleteFederatedResource } from '../services/delete-resource.js';
import { getFederatedResource, listFederatedResources } from '../services/list-resources.js';
import { upsertFederatedResource } from '../services/upsert-resource.js';
import { FederatedResourceListInput, UpsertFederatedResourceInput } from '../types/inputs.js';
import { PublisherReference, publisherReference } from '../types/publisher-ref.js';

@Resolver(() => FederatedResource)
export class FederatedResourceResolver {
  @Query(() => [FederatedResource], { description: 'Federated resources, `active` ones unless `status` says otherwise, newest first' })
  federatedResources(@Arg('input', () => FederatedResourceListInput, { nullable: true }) input: FederatedResourceListInput | null, @Ctx() context: RequestContext) {
    return listFederatedResources(context, input ?? {});
  }

  @Query(() => FederatedResource)
  federatedResource(@Arg('id', () => ID) id: string, @Ctx() context: RequestContext) {
    return getFederatedResource(context, id);
  }

  @Mutation(() => FederatedResource, { description: 'Inserts or updates, by (publisher, type, external id), a resource of the caller’s publisher' })
  upsertFederatedResource(@Arg('input', () => UpsertFederatedResourceInput) input: UpsertFederatedResourceInput, @Ctx() context: RequestContext) {
    return upsertFederatedResource(context, input);
  }

  @Mutation(() => Boolean, { description: 'Deletes the caller’s publisher’s resource; its history stays' })
  deleteFederatedResource(
    @Arg('resourceType', () => String) resourceType: string,
    @Arg('externalId', () => String) externalId: string,
    @Arg('publisherSlug', () => String, { nullable: true }) publisherSlug: string | null,
    @Ctx() context: RequestContext,
  ) {
    return deleteFederatedResource(context, resourceType, externalId, publisherSlug);
  }

  @FieldResolver(() => PublisherReference, { nullable: true, description: 'Resolved by the marketplace through the supergraph' })
  publisher(@Root() resource: FederatedResource) {
    return publisherReference(resource.publisherId);
  }
}
