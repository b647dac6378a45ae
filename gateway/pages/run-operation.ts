import type { ApolloServer } from '@apollo/server';
import type { RequestContext } from '../../shared/context.js';
import { errorBodyOf } from '../../shared/http/error-response.js';

export type OperationOutcome = { data: Record<string, any>; error?: undefined } | { data?: undefined; error: { code: string; message: string } };

/** Runs one public GraphQL operation for a page, as the REST adapter does, with the caller's context. */
export async function runOperation(
  graphql: ApolloServer<RequestContext>,
  context: RequestContext,
  query: string,
  variables: Record<string, unknown>,
): Promise<OperationOutcome> {
  try {
    const response = await graphql.executeOperation({ query, variables }, { contextValue: context });
    if (response.body.kind !== 'single') throw new Error('Incremental delivery is not used by pages');
    const { data, errors } = response.body.singleResult;
    if (errors?.length) {
      const extensions = (errors[0]!.extensions ?? {}) as Record<string, unknown>;
      return { error: { code: String(extensions.code ?? 'internal_error'), message: errors[0]!.message } };
    }
    return { data: data ?? {} };
  } catch (error) {
    const { code, message } = errorBodyOf(error, context.log, context.requestId);
    return { error: { code, message } };
  }
}
