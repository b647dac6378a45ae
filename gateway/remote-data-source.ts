import { RemoteGraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { GraphQLError } from 'graphql';
import { isAppErrorExtensions } from '../shared/errors.js';
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
      ip: context.ip,
      operation: operationDigest(request.query, request.variables),
    });
    request.http?.headers.set(INTERNAL_IDENTITY_HEADER, token);
    request.http?.headers.set('x-request-id', context.requestId);
  }

  /**
   * A subgraph answers a request it refuses (a variable that does not fit its own scalars) with
   * HTTP 400 and our error in the body: that error is passed on, not Apollo's "400: Bad Request".
   */
  override async errorFromResponse(response: Parameters<RemoteGraphQLDataSource['errorFromResponse']>[0]): Promise<GraphQLError> {
    const error = await super.errorFromResponse(response);
    const body = (error.extensions.response as { body?: { errors?: { message?: unknown; extensions?: Record<string, unknown> }[] } } | undefined)?.body;
    const first = response.status === 400 && typeof body === 'object' ? body?.errors?.[0] : undefined;
    if (!first || !isAppErrorExtensions(first.extensions)) return error;
    return new GraphQLError(String(first.message), { extensions: first.extensions });
  }
}
