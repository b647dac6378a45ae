import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { EntityManager } from '@mikro-orm/postgresql';
import { createRequestContext, type Identity, type RequestContext } from '../shared/context.js';
import { unauthorized } from '../shared/errors.js';
import type { PlatformServices } from '../shared/services.js';

export type BearerResolver = (em: EntityManager, token: string, services: PlatformServices) => Promise<Identity>;

const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

export function requestIdOf(req: Request): string {
  const offered = req.header('x-request-id');
  return offered && REQUEST_ID.test(offered) ? offered : randomUUID();
}

/** Reads `Authorization: Bearer …`; a malformed or unknown credential is a 401, a missing one is anonymous. */
export function bearerTokenOf(req: Request): string | null {
  const header = req.header('authorization');
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthorized('Authorization header must be "Bearer <token>"', 'invalid_authorization_header');
  return match[1]!;
}

/** Identity is resolved once per request, here, and travels in the context to every subgraph. */
export function createContextBuilder(services: PlatformServices, resolveBearer: BearerResolver) {
  return async function buildContext(req: Request, requestId: string): Promise<RequestContext> {
    const token = bearerTokenOf(req);
    const context = createRequestContext(services, requestId, null, req.ip ?? req.socket.remoteAddress ?? 'unknown');
    if (token) context.identity = await resolveBearer(context.em, token, services);
    return context;
  };
}
