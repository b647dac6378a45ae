import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { requireIdentity, type RequestContext } from '../../shared/context.js';
import { MAX_LOGO_BYTES, readLogo, storeLogo } from './services/logos.js';

const context = (res: Response) => res.locals.context as RequestContext;

/** Logo bytes bypass GraphQL; registered before the proxy's /publishers/{slug}/{path...} so they win. */
export function logoRoutes(router: Router): void {
  router.put(
    '/publishers/:slug/logo',
    // Who calls is settled before a byte of the body is read.
    (_req: Request, res: Response, next: NextFunction) => {
      try {
        requireIdentity(context(res));
        next();
      } catch (error) {
        next(error);
      }
    },
    express.raw({ type: () => true, limit: MAX_LOGO_BYTES * 2 }),
    async (req: Request, res: Response, next: NextFunction) => {
      try {
        const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const stored = await storeLogo(context(res), String(req.params.slug), bytes);
        res.setHeader('ETag', stored.etag);
        res.json({ data: { logo_url: stored.logoUrl } });
      } catch (error) {
        next(error);
      }
    },
  );
  router.get('/publishers/:slug/logo', async (req: Request, res: Response, next: NextFunction) => {
    try {
      const logo = await readLogo(context(res).em, String(req.params.slug));
      res.setHeader('ETag', logo.etag);
      res.setHeader('Cache-Control', 'public, max-age=300, must-revalidate');
      res.setHeader('Last-Modified', logo.updatedAt.toUTCString());
      if (req.headers['if-none-match']?.split(',').some((tag) => tag.trim() === logo.etag)) return void res.status(304).end();
      res.setHeader('Content-Type', logo.contentType);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
      res.send(Buffer.from(logo.bytes));
    } catch (error) {
      next(error);
    }
  });
}
