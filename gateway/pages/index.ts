import { Router, type Request, type Response } from 'express';
import type { ApolloServer } from '@apollo/server';
import type { GraphQLSchema } from 'graphql';
import type { RequestContext } from '../../shared/context.js';
import type { PlatformServices } from '../../shared/services.js';
import { openApiDocument } from '../../rest-adapter/openapi/document.js';
import type { JsonSchema } from '../../rest-adapter/openapi/json-schema.js';
import { rawRoutesOf } from '../../rest-adapter/openapi/raw-routes.js';
import { restRoutes } from '../../rest-adapter/routes/index.js';
import { assetRoutes } from './assets.js';
import { renderDocs } from './docs-page.js';
import { emailPages } from './email-pages.js';
import { graphiqlPage } from './graphiql-page.js';
import { sendPage } from './html.js';
import { renderLanding } from './landing-page.js';
import { renderLlmsTxt } from './llms-txt.js';
import { platformVersion } from './version.js';

export interface PagesParts {
  services: PlatformServices;
  graphql: ApolloServer<RequestContext>;
  apiSchema: GraphQLSchema;
  /** The subgraphs' own routes, described in /openapi.json beside the REST rows. */
  rawRoutes: Router;
}

/**
 * What a person or a client generator opens: the landing page, the e-mail link pages, the GraphQL
 * IDE, the REST reference (/docs, /openapi.json) and /llms.txt. All from this origin, no CDN.
 */
export function pagesRouter(parts: PagesParts): Router {
  const { config } = parts.services;
  const router = Router();
  let document: JsonSchema | undefined;
  // Built on first use: the schema and the route tables are fixed for the life of the process.
  const openApi = () =>
    (document ??= openApiDocument({
      schema: parts.apiSchema,
      routes: restRoutes,
      rawRoutes: rawRoutesOf(parts.rawRoutes),
      version: platformVersion().version,
      serverUrl: config.publicUrl,
    }));

  assetRoutes(router);
  graphiqlPage(router);
  emailPages(router, parts.graphql);
  router.get('/', (_req: Request, res: Response) => sendPage(res, 200, 'Agent commerce platform', renderLanding(config, platformVersion())));
  router.get('/docs', (_req: Request, res: Response) => sendPage(res, 200, 'REST reference', renderDocs(openApi())));
  router.get('/openapi.json', (_req: Request, res: Response) => void res.json(openApi()));
  router.get('/llms.txt', (_req: Request, res: Response) => void res.type('text/plain').send(renderLlmsTxt(config)));
  return router;
}
