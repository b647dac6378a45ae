import type { Request, Response, Router } from 'express';
import type { RequestContext } from '../../../shared/context.js';
import type { PlatformServices } from '../../../shared/services.js';
import { completeAuthorization } from '../services/complete-authorization.js';
import { enforceOAuthLimit } from '../services/rate-limits.js';
import { startAuthorization } from '../services/start-authorization.js';

type ProviderReference = { id?: string; slug?: string };
const byId = (req: Request): ProviderReference => ({ id: String(req.params.provider_id) });
const bySlug = (req: Request): ProviderReference => ({ slug: String(req.params.provider) });

/** A query parameter given once, else undefined (a repeated one is as good as absent). */
const single = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * The browser legs of the flow answer 302 redirects, which REST rows do not, so they are raw routes
 * calling the same services as GraphQL's `startOAuthAuthorization`: authorize (credential
 * required) sends the user to the provider; the callback (no credential: the state is the proof)
 * sends them on to their redirect. Query strings (codes, states) are never logged.
 */
export function authorizationRoutes(router: Router, services: PlatformServices): void {
  const authorize = (reference: (req: Request) => ProviderReference) => async (req: Request, res: Response) => {
    const context = res.locals.context as RequestContext;
    const { authorizationUrl } = await startAuthorization(context, reference(req), single(req.query.redirect_uri));
    res.redirect(302, authorizationUrl);
  };
  const callback = (reference: (req: Request) => ProviderReference) => async (req: Request, res: Response) => {
    const context = res.locals.context as RequestContext;
    await enforceOAuthLimit(services, 'callbackPerAddress', context.ip);
    const location = await completeAuthorization(services, context.em, {
      provider: reference(req),
      code: single(req.query.code),
      state: single(req.query.state),
      error: single(req.query.error),
      iss: single(req.query.iss),
    });
    res.redirect(302, location);
  };
  router.get('/oauth/providers/:provider_id/authorize', authorize(byId));
  router.get('/oauth/providers/:provider_id/callback', callback(byId));
  router.get('/oauth/:provider/authorize', authorize(bySlug));
  router.get('/oauth/:provider/callback', callback(bySlug));
}
