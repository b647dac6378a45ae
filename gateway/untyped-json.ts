import express, { type NextFunction, type Request, type Response } from 'express';
import { AppError } from '../shared/errors.js';

const hasBody = (req: Request) => req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

const unsupportedMediaType = (type: string | undefined) =>
  new AppError(415, 'unsupported_media_type', `Send the body as application/json${type ? ` (not ${type.split(';')[0]})` : ''}`);

function jsonObjectOf(text: unknown): Record<string, unknown> | null {
  if (typeof text !== 'string') return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * REST bodies the JSON parser left unread: one sent without a Content-Type or as text/plain (what
 * `curl -d` sends) that holds a JSON object is read as JSON; any other body is 415
 * `unsupported_media_type`, never taken as empty. GraphQL is not served here: Apollo's CSRF
 * protection refuses such simple requests on purpose.
 */
export function readUntypedJson(limit: string) {
  const readText = express.text({ type: () => true, limit });
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.body !== undefined || !hasBody(req) || req.path.startsWith('/graphql')) return next();
    const type = req.headers['content-type'];
    if (type !== undefined && !req.is('text/plain')) return next(unsupportedMediaType(type));
    readText(req, res, (error?: unknown) => {
      if (error) return next(error);
      const body = jsonObjectOf(req.body);
      if (!body) return next(unsupportedMediaType(type));
      req.body = body;
      next();
    });
  };
}
