import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../../shared/context.js';
import { ApiKey } from '../entities/api-key.js';
import { createApiKey, listApiKeys, revokeApiKey } from '../services/api-keys.js';
import { CreateApiKeyInput } from '../types/inputs.js';
import { CreatedApiKey } from '../types/results.js';

/** Managing keys needs a signed-in user's access token; an API key is refused with 403. */
@Resolver(() => ApiKey)
export class ApiKeyResolver {
  @Query(() => [ApiKey])
  apiKeys(@Arg('organizationId', () => ID, { nullable: true }) organizationId: string | null, @Ctx() context: RequestContext) {
    return listApiKeys(context, organizationId);
  }

  @Mutation(() => CreatedApiKey)
  createApiKey(@Arg('input', () => CreateApiKeyInput) input: CreateApiKeyInput, @Ctx() context: RequestContext) {
    return createApiKey(context, input);
  }

  @Mutation(() => ApiKey)
  revokeApiKey(
    @Arg('id', () => ID) id: string,
    @Arg('organizationId', () => ID, { nullable: true, description: 'When given (an id, or "default" for the caller\'s default organization), the key must belong to it (404 otherwise)' }) organizationId: string | null,
    @Ctx() context: RequestContext,
  ) {
    return revokeApiKey(context, id, organizationId);
  }
}
