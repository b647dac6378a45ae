import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../../shared/context.js';
import { OrganizationRef } from '../entities/organization-stub.js';
import { Publisher } from '../entities/publisher.js';
import { activePublishersByOrganization } from '../loaders.js';

@Resolver(() => OrganizationRef)
export class OrganizationPublishersResolver {
  @FieldResolver(() => [Publisher], { description: "The organization's publishers, paused ones included (not deleted ones)" })
  publishers(@Root() organization: OrganizationRef, @Ctx() context: RequestContext) {
    return activePublishersByOrganization(context).load(organization.id);
  }
}
