import { RemoteGraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { signInternalIdentity, INTERNAL_IDENTITY_HEADER } from '../shared/auth/internal-token.js';
import type { RequestContext } from '../shared/context.js';

/** Split mode: a subgraph served by its own process, told who is calling by a signed short-lived token. */
export class RemoteSubgraph extends RemoteGraphQLDataSource<RequestContext> {
  constructor(
    url: string,
    private readonly internalSecret: string,
  ) {
    super({ url });
  }

  override async willSendRequest({ request, context }: GraphQLDataSourceProcessOptions<RequestContext>): Promise<void> {
    if (!context?.requestId) return;
    const token = await signInternalIdentity(this.internalSecret, context.requestId, context.identity ?? null, context.ip);
    request.http?.headers.set(INTERNAL_IDENTITY_HEADER, token);
    request.http?.headers.set('x-request-id', context.requestId);
  }
}
