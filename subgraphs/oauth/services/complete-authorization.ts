import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, badRequest } from '../../../shared/errors.js';
import { secretBoxOf } from '../../../shared/secret-box.js';
import type { PlatformServices } from '../../../shared/services.js';
import { accountIdOf } from './account-id.js';
import { findProviderById, providerNotFound } from './find-provider.js';
import { endpointsOf } from './provider-endpoints.js';
import { redirectWith } from './redirects.js';
import { saveConnection } from './save-connection.js';
import { invalidState, spendState } from './spend-state.js';
import { TokenRequestRefused, requestTokens } from './token-requests.js';

export interface CallbackQuery {
  /** The callback's path names the provider by id or by slug; it must be the state's. */
  provider: { id?: string; slug?: string };
  code?: unknown;
  state?: unknown;
  /** The provider's refusal (the user declined), RFC 6749 §4.1.2.1. */
  error?: unknown;
  /** The issuer the answer claims to come from (RFC 9207), when the provider sends it. */
  iss?: unknown;
}

const PROVIDER_ERROR = /^[a-z0-9_.-]{1,64}$/i;

/**
 * The provider's redirect back: with a good state, the code is exchanged (with the PKCE
 * verifier) for tokens, the account identified, and the connection stored; the user is sent to
 * the redirect bound to the state with `status=success&connection_id=` or `status=error&error=`.
 * Answers the Location to send the user to.
 */
export async function completeAuthorization(services: PlatformServices, em: EntityManager, query: CallbackQuery): Promise<string> {
  const hasError = typeof query.error === 'string' && query.error !== '';
  if (!hasError && (typeof query.code !== 'string' || query.code === '' || query.code.length > 4096)) {
    throw badRequest('invalid_request', 'code and state are required');
  }
  const state = await spendState(em, query.state);
  const provider = await findProviderById(em, state.providerId);
  if (!provider || !provider.isActive) throw providerNotFound();
  if ((query.provider.id !== undefined && query.provider.id !== provider.id) || (query.provider.slug !== undefined && query.provider.slug !== provider.slug)) {
    throw invalidState('was made for another provider');
  }
  const failed = (error: string) => redirectWith(state.redirectUri, { status: 'error', error });
  if (hasError) return failed(PROVIDER_ERROR.test(query.error as string) ? (query.error as string) : 'authorization_failed');
  try {
    const endpoints = await endpointsOf(services, provider);
    // A code another issuer handed out (a mix-up attack) is never sent to this provider's token endpoint.
    if (query.iss !== undefined && endpoints.issuer !== null && query.iss !== endpoints.issuer) return failed('issuer_mismatch');
    const tokens = await requestTokens(services, provider, endpoints, {
      grant_type: 'authorization_code',
      code: query.code as string,
      redirect_uri: state.callbackUri,
      code_verifier: secretBoxOf(services).decrypt(state.codeVerifierSealed),
    });
    const accountId = await accountIdOf(services, provider, endpoints, tokens, state.nonce);
    const connection = await saveConnection(services, em, { userId: state.userId, providerId: provider.id, accountId, requestedScopes: provider.scopes }, tokens);
    return redirectWith(state.redirectUri, { status: 'success', connection_id: connection.id });
  } catch (error) {
    if (error instanceof TokenRequestRefused) return failed(error.reason);
    if (error instanceof AppError && error.code === 'oauth_provider_unavailable') return failed(error.code);
    throw error;
  }
}
