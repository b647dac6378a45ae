import { RemoteGraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { INTERNAL_IDENTITY_HEADER, operationDigest, signInternalIdentity } from '../shared/auth/internal-token.js';
import type { RequestContext } from '../shared/context.js';

/** Split mode: a subgraph served by its own process, told who is calling by a signed short-lived token. */
export class RemoteSubgraph extends RemoteGraphQLDataSource<RequestContext> {
  constructor(
    private readonly subgraph: string,
    url: string,
    private readonly internalSecret: string,
  ) {
    super({ url });
  }

  override async willSendRequest({ request, context }: GraphQLDataSourceProcessOptions<RequestContext>): Promise<void> {
    if (!context?.requestId) return;
    const token = await signInternalIdentity(this.internalSecret, {
      subgraph: this.subgraph,
      requestId: context.requestId,
      identity: context.identity ?? null,
      operator: context.operator,
      ip: context.ip,
      operation: operationDigest(request.query, request.variables),
    });
    request.http?.headers.set(INTERNAL_IDENTITY_HEADER, token);
    request.http?.headers.set('x-request-id', context.requestId);
  }
}
