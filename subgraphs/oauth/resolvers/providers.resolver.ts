import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../../shared/context.js';
import { listProviders } from '../services/list-providers.js';
import { createOrganizationProvider, disableOrganizationProvider, updateOrganizationProvider } from '../services/manage-providers.js';
import { OAuthProviderInput, OAuthProviderUpdateInput } from '../types/inputs.js';
import { OAuthProviderView } from '../types/results.js';

@Resolver()
export class ProvidersResolver {
  @Query(() => [OAuthProviderView], { description: "Active global providers plus those of the caller's organizations" })
  oauthProviders(@Ctx() context: RequestContext) {
    return listProviders(context);
  }

  @Mutation(() => OAuthProviderView, { description: "An organization's own provider (owners and admins)" })
  createOAuthProvider(@Arg('input', () => OAuthProviderInput) input: OAuthProviderInput, @Ctx() context: RequestContext) {
    return createOrganizationProvider(context, input);
  }

  @Mutation(() => OAuthProviderView)
  updateOAuthProvider(
    @Arg('providerId', () => ID) providerId: string,
    @Arg('input', () => OAuthProviderUpdateInput) input: OAuthProviderUpdateInput,
    @Ctx() context: RequestContext,
  ) {
    return updateOrganizationProvider(context, providerId, input);
  }

  @Mutation(() => OAuthProviderView, { description: 'Disabled: no longer listed, and its tokens no longer passed to publishers' })
  disableOAuthProvider(@Arg('providerId', () => ID) providerId: string, @Ctx() context: RequestContext) {
    return disableOrganizationProvider(context, providerId);
  }
}
