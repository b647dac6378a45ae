import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../../shared/context.js';
import { deleteConnection } from '../services/delete-connection.js';
import { connectionShown, listConnections } from '../services/list-connections.js';
import { setDefaultConnection } from '../services/set-default-connection.js';
import { startAuthorization } from '../services/start-authorization.js';
import { StartOAuthAuthorizationInput } from '../types/inputs.js';
import { OAuthAuthorization, OAuthConnectionDeleted, OAuthConnectionView } from '../types/results.js';

@Resolver()
export class ConnectionsResolver {
  @Query(() => [OAuthConnectionView], { description: "The caller's linked accounts" })
  oauthConnections(@Ctx() context: RequestContext) {
    return listConnections(context);
  }

  @Mutation(() => OAuthAuthorization, { description: 'Begins linking an account (authorization code flow with PKCE)' })
  startOAuthAuthorization(@Arg('input', () => StartOAuthAuthorizationInput) input: StartOAuthAuthorizationInput, @Ctx() context: RequestContext) {
    const reference = input.providerId ? { id: input.providerId } : { slug: input.provider ?? '' };
    return startAuthorization(context, reference, input.redirectUri);
  }

  @Mutation(() => OAuthConnectionView, { description: "Makes it its provider's only default connection" })
  async setDefaultOAuthConnection(@Arg('connectionId', () => ID) connectionId: string, @Ctx() context: RequestContext) {
    await setDefaultConnection(context, connectionId);
    return connectionShown(context, connectionId);
  }

  @Mutation(() => OAuthConnectionDeleted, { description: 'Revokes the token at the provider when it can, then forgets the connection' })
  async deleteOAuthConnection(@Arg('connectionId', () => ID) connectionId: string, @Ctx() context: RequestContext) {
    const deleted = await deleteConnection(context, connectionId);
    return { ...deleted, revoked: true };
  }
}
