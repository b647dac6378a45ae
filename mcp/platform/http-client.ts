import type { ExecuteOperation, GraphQLAnswer } from './platform-client.js';
import { PlatformError } from './platform-client.js';

/** The stdio server's way in: the platform's public GraphQL endpoint, with the caller's API key. */
export function graphqlOverHttp(apiUrl: string, apiKey: string): ExecuteOperation {
  const endpoint = `${apiUrl.replace(/\/$/, '')}/graphql`;
  return async (query, variables) => {
    let response: Response;
    try {
      response = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${apiKey}` },
        body: JSON.stringify({ query, variables }),
      });
    } catch (error) {
      throw new PlatformError('platform_unreachable', `The platform at ${apiUrl} does not answer (${(error as Error).message})`);
    }
    const text = await response.text();
    try {
      // GraphQL over HTTP answers errors in the body too (400 for a bad document, 401 for a bad key).
      return JSON.parse(text) as GraphQLAnswer;
    } catch {
      throw new PlatformError('platform_error', `The platform answered HTTP ${response.status} without a GraphQL body`);
    }
  };
}
