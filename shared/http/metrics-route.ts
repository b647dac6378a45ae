import type { Request, Response } from 'express';
import { constantTimeEqual, sha256Hex } from '../crypto.js';
import { AppError } from '../errors.js';
import type { PlatformServices } from '../services.js';
import { bearerTokenOf } from './bearer.js';
import { sendError } from './error-response.js';

/**
 * GET /metrics for Prometheus, behind its own bearer token (METRICS_TOKEN), not a user's: a
 * scraper needs no account, and no account can read the platform's figures. Without a token
 * configured the route does not exist. Served by the gateway and by every split-mode subgraph,
 * each reporting its own process.
 */
export function metricsRoute(services: PlatformServices) {
  return async (req: Request, res: Response) => {
    const token = services.config.metricsToken;
    if (!token) return sendError(res, { status: 404, code: 'route_not_found', message: `No route for ${req.method} ${req.path}` });
    let given: string | null;
    try {
      given = bearerTokenOf(req);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      given = null;
    }
    // Digests of equal length: the comparison does not reveal the token's length either.
    if (!given || !constantTimeEqual(sha256Hex(given), sha256Hex(token))) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
      return sendError(res, { status: 401, code: 'unauthorized', message: 'GET /metrics needs the metrics token' });
    }
    const { registry } = services.metrics;
    res.setHeader('Content-Type', registry.contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.send(await registry.metrics());
  };
}
