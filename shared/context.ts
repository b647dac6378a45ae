import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from './logger.js';
import type { PlatformServices } from './services.js';
import { unauthorized, forbidden } from './errors.js';

/** Who is calling, resolved once per request at the front door. */
export interface Identity {
  userId: string;
  organizationId: string;
  email: string | null;
  emailVerified: boolean;
  kind: 'user' | 'agent';
  credential: 'access_token' | 'api_key';
  /** Session family of an access token; null for API keys. */
  sessionId: string | null;
  apiKeyId: string | null;
}

export interface RequestContext {
  requestId: string;
  identity: Identity | null;
  /** The platform operator (a Bearer from ADMIN_API_KEYS): no user identity, only operator operations. */
  operator: boolean;
  /** Request-scoped EntityManager (a fork): reads; writes go through em.transactional. */
  em: EntityManager;
  services: PlatformServices;
  log: Logger;
  ip: string;
  /** Per-request memo for DataLoaders, keyed by loader name. */
  loaders: Map<string, unknown>;
}

export function requireIdentity(context: RequestContext): Identity {
  if (!context.identity) throw unauthorized();
  return context.identity;
}

/** API keys are for machines; managing keys and passwords needs a signed-in user's access token. */
export function requireUserSession(context: RequestContext): Identity {
  const identity = requireIdentity(context);
  if (identity.credential !== 'access_token') {
    throw forbidden('This operation needs a signed-in user access token, not an API key', 'access_token_required');
  }
  return identity;
}

export function requireVerifiedEmail(context: RequestContext): Identity {
  const identity = requireIdentity(context);
  if (!identity.emailVerified) throw forbidden('A verified e-mail address is required', 'email_verification_required');
  return identity;
}

/** Memoised per-request loader: `loader(ctx, 'usersById', () => new DataLoader(...))`. */
export function loader<T>(context: RequestContext, name: string, create: () => T): T {
  let existing = context.loaders.get(name) as T | undefined;
  if (!existing) {
    existing = create();
    context.loaders.set(name, existing);
  }
  return existing;
}

export function createRequestContext(
  services: PlatformServices,
  requestId: string,
  identity: Identity | null,
  ip: string,
  operator = false,
): RequestContext {
  return {
    requestId,
    identity,
    operator,
    em: services.orm.em.fork() as EntityManager,
    services,
    log: services.log.child({ requestId }),
    ip,
    loaders: new Map(),
  };
}
