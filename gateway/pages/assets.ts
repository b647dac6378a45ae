import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Request, Response, Router } from 'express';
import { PAGES_CSS } from './styles.js';
import { GRAPHIQL_START } from './graphiql-start.js';

const require = createRequire(import.meta.url);

interface Asset {
  type: string;
  body: () => Buffer | string;
}

/** A file of a package's, found at start (packages may not export their browser builds to Node). */
const file = (packageName: string, relative: string) => {
  const location = path.join(path.dirname(require.resolve(`${packageName}/package.json`)), relative);
  let content: Buffer | undefined;
  return () => (content ??= readFileSync(location));
};

/**
 * Everything a page loads, served from this origin: the GraphQL IDE and React from their npm
 * packages (as published, no build step), and the pages' own stylesheet and start script.
 */
const ASSETS: Record<string, Asset> = {
  'pages.css': { type: 'text/css', body: () => PAGES_CSS },
  'graphiql-start.js': { type: 'application/javascript', body: () => GRAPHIQL_START },
  'react.js': { type: 'application/javascript', body: file('react', 'umd/react.production.min.js') },
  'react-dom.js': { type: 'application/javascript', body: file('react-dom', 'umd/react-dom.production.min.js') },
  'graphiql.js': { type: 'application/javascript', body: file('graphiql', 'graphiql.min.js') },
  'graphiql.css': { type: 'text/css', body: file('graphiql', 'graphiql.min.css') },
};

export function assetRoutes(router: Router): void {
  router.get('/assets/:name', (req: Request, res: Response, next) => {
    const asset = ASSETS[String(req.params.name)];
    if (!asset) return next();
    res.type(asset.type);
    // The same for everyone and versioned with the platform: a browser may keep it for an hour.
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.send(asset.body());
  });
}
