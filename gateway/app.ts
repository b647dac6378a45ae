import express, { type NextFunction, type Request, type Response } from 'express';
import helmet from 'helmet';
import { expressMiddleware } from '@as-integrations/express5';
import type { ApolloServer } from '@apollo/server';
import type { GraphQLSchema } from 'graphql';
import type { RequestContext } from '../shared/context.js';
import { AppError } from '../shared/errors.js';
import type { PlatformServices } from '../shared/services.js';
import type { SubgraphModule } from '../shared/subgraph.js';
import { createRestRouter } from '../rest-adapter/router.js';
import { MCP_CHALLENGE, mcpRouter } from '../mcp/http-route.js';
import { PublicAnswerCache } from '../rest-adapter/answer-cache.js';
import type { OneHopRouter } from './one-hop.js';
import type { PreparedGraphQL } from './prepared-graphql.js';
import { errorBodyOf, sendError, sendGraphQLError, type ErrorBody } from '../shared/http/error-response.js';
import { restRoutes } from '../rest-adapter/routes/index.js';
import { createContextBuilder, requestIdOf, type BearerResolver } from './context.js';
import { metricsRoute } from '../shared/http/metrics-route.js';
import { corsFor } from '../shared/http/cors.js';
import { jsonDepthOf, jsonTooDeep, MAX_JSON_DEPTH } from '../shared/http/json-depth.js';
import { pagesRouter } from './pages/index.js';
import { readUntypedJson } from './untyped-json.js';
import { discardUnreadBodies } from '../shared/http/unread-body.js';

export interface AppParts {
  services: PlatformServices;
  graphql: ApolloServer<RequestContext>;
  apiSchema: GraphQLSchema;
  /** Runs REST rows answered by one in-process subgraph directly on it. */
  oneHop?: OneHopRouter;
  /** Answers POST /graphql operations that one in-process subgraph answers alone, before the GraphQL server. */
  preparedGraphQL?: PreparedGraphQL;
  modules: SubgraphModule[];
  resolveBearer: BearerResolver;
  /** POST /internal/ports/:name: the ports of the modules this process runs, for subgraph processes (split mode). */
  ports?: express.RequestHandler;
}

export const JSON_BODY_LIMIT = '1mb';

/**
 * An error answered before GraphQL runs (a bad credential, a body that is not JSON): in the shape
 * of the surface asked, so a GraphQL client finds its code in errors[].extensions too.
 */
function sendFrontDoorError(req: Request, res: Response, error: ErrorBody): void {
  if (error.status === 401 && req.path.startsWith('/mcp')) res.setHeader('WWW-Authenticate', MCP_CHALLENGE);
  (req.path.startsWith('/graphql') ? sendGraphQLError : sendError)(res, error);
}

function refuseDeepJson(req: Request, res: Response, next: NextFunction): void {
  if (jsonDepthOf(req.body) <= MAX_JSON_DEPTH) return next();
  const { status, code, message } = jsonTooDeep();
  sendFrontDoorError(req, res, { status, code, message });
}

function logRequests(parts: AppParts) {
  return (req: Request, res: Response, next: NextFunction) => {
    const requestId = requestIdOf(req);
    res.locals.requestId = requestId;
    res.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    // 'close' rather than 'finish': an answer cut short (the caller left, or a broken upstream made
    // us cut it) is logged and counted too.
    res.on('close', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const path = req.originalUrl.split('?')[0]!;
      const finished = res.writableFinished;
      // A request cut before its headers went out has no status yet.
      const status = res.headersSent ? res.statusCode : null;
      const entry = { requestId, method: req.method, path, status, ms: Math.round(ms * 100) / 100, ...(finished ? {} : { cutShort: true }) };
      const statusClass = finished ? `${Math.floor(res.statusCode / 100)}xx` : 'cut_short';
      // The data plane marks its own requests; everything else is GraphQL or REST by its path.
      const surface = res.locals.surface ?? (path.startsWith('/graphql') ? 'graphql' : 'rest');
      parts.services.metrics.httpRequests.observe({ surface, status_class: statusClass }, ms / 1000);
      if (status !== null && status >= 500) parts.services.log.error(entry, finished ? 'request failed' : 'request failed, cut short');
      else parts.services.log.info(entry, finished ? 'request' : 'request cut short');
    });
    next();
  };
}

/** Body-parser failures become clear 4xx answers; everything else unexpected is masked. */
function handleErrors(parts: AppParts) {
  return (error: any, req: Request, res: Response, _next: NextFunction) => {
    const requestId = String(res.locals.requestId ?? '');
    // Too late for an answer of its own (a stream had begun): logged, and the connection ends.
    if (res.headersSent) {
      errorBodyOf(error, parts.services.log, requestId);
      return void res.destroy();
    }
    if (error?.type === 'entity.too.large') {
      // A route may parse with a smaller limit of its own: the error carries the one that applied.
      const limit = typeof error.limit === 'number' ? `${error.limit} bytes` : JSON_BODY_LIMIT;
      return sendFrontDoorError(req, res, { status: 413, code: 'payload_too_large', message: `Request body exceeds ${limit}` });
    }
    if (error?.type === 'entity.parse.failed') {
      return sendFrontDoorError(req, res, { status: 400, code: 'invalid_json', message: 'The request body is not valid JSON' });
    }
    if (error?.type === 'encoding.unsupported' || error?.type === 'charset.unsupported') {
      return sendFrontDoorError(req, res, { status: 415, code: 'unsupported_encoding', message: 'Unsupported body encoding' });
    }
    // The router's own refusals (e.g. a path parameter that is not valid percent-encoding) carry a 4xx status.
    const status = !(error instanceof AppError) && typeof error?.status === 'number' ? error.status : undefined;
    if (status !== undefined && status >= 400 && status < 500) {
      return sendFrontDoorError(req, res, { status, code: 'invalid_request', message: error.expose && error.message ? error.message : 'Invalid request' });
    }
    sendFrontDoorError(req, res, errorBodyOf(error, parts.services.log, requestId));
  };
}

export function createApp(parts: AppParts): express.Express {
  const { services } = parts;
  const app = express();
  app.disable('x-powered-by');
  // Every answer is no-store unless its route says otherwise (a logo carries its own ETag): a hash
  // of each body would be spent for no cache to use.
  app.disable('etag');
  app.set('trust proxy', services.config.trustProxy);
  app.use(helmet());
  app.use(corsFor(services.config.corsAllowedOrigins));
  // Answers are personal (tokens, keys, balances): never stored by a cache unless a route says so
  // (a logo, or a publisher's answer with its own Cache-Control).
  app.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  app.get('/healthz', (_req, res) => void res.json({ data: { status: 'ok' } }));
  app.get('/readyz', async (_req, res) => {
    try {
      await services.orm.em.getConnection().execute('select 1');
      res.json({ data: { status: 'ready' } });
    } catch {
      sendError(res, { status: 503, code: 'database_unavailable', message: 'The database does not answer' });
    }
  });
  app.get('/metrics', metricsRoute(services));
  if (parts.ports) app.post('/internal/ports/:name', express.text({ type: () => true, limit: JSON_BODY_LIMIT }), parts.ports);
  app.use(logRequests(parts));

  const buildContext = createContextBuilder(services, parts.resolveBearer);
  app.use(async (req, res, next) => {
    try {
      res.locals.context = await buildContext(req, res.locals.requestId);
      next();
    } catch (error) {
      sendFrontDoorError(req, res, errorBodyOf(error, services.log, res.locals.requestId));
    }
  });

  app.use(discardUnreadBodies);
  // Routes that need the raw body (signed webhooks) or byte streams come before JSON parsing.
  const rawRoutes = express.Router();
  for (const module of parts.modules) module.httpRoutes?.(rawRoutes, services);
  app.use(rawRoutes);
  app.use(pagesRouter({ ...parts, rawRoutes }));

  app.use(express.json({ limit: JSON_BODY_LIMIT }));
  app.use(readUntypedJson(JSON_BODY_LIMIT));
  app.use(refuseDeepJson);
  if (parts.preparedGraphQL) app.use('/graphql', parts.preparedGraphQL.handle);
  app.use('/graphql', expressMiddleware(parts.graphql, { context: async ({ res }) => res.locals.context as RequestContext }));
  app.use(mcpRouter(parts.graphql, parts.apiSchema, services.config.mcp));
  const publicTopics = restRoutes.flatMap((route) => (route.publicCache ? [route.publicCache] : []));
  const publicAnswers = new PublicAnswerCache(services.config.publicAnswerCacheSeconds * 1000, services.changes, publicTopics);
  app.use(createRestRouter({ graphql: parts.graphql, apiSchema: parts.apiSchema, routes: restRoutes, publicAnswers, oneHop: parts.oneHop }));
  app.use((req, res) =>
    sendError(res, { status: 404, code: 'route_not_found', message: `No route for ${req.method} ${req.path}` }),
  );
  app.use(handleErrors(parts));
  return app;
}
