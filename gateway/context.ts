import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { EntityManager } from '@mikro-orm/postgresql';
import { createRequestContext, type Identity, type RequestContext } from '../shared/context.js';
import { bearerTokenOf } from '../shared/http/bearer.js';
import { isOperatorKey } from '../shared/auth/operator-keys.js';
import type { PlatformServices } from '../shared/services.js';

export type BearerResolver = (em: EntityManager, token: string, services: PlatformServices) => Promise<Identity>;

const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

export function requestIdOf(req: Request): string {
  const offered = req.header('x-request-id');
  return offered && REQUEST_ID.test(offered) ? offered : randomUUID();
}


/** Identity is resolved once per request, here, and travels in the context to every subgraph. */
export function createContextBuilder(services: PlatformServices, resolveBearer: BearerResolver) {
  return async function buildContext(req: Request, requestId: string): Promise<RequestContext> {
    const token = bearerTokenOf(req);
    const context = createRequestContext(services, requestId, null, req.ip ?? req.socket.remoteAddress ?? 'unknown');
    if (token && isOperatorKey(services.config.adminApiKeys, token)) context.operator = true;
    else if (token) context.identity = await resolveBearer(context.em, token, services);
    return context;
  };
}
