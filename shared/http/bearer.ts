import type { Request } from 'express';
import { unauthorized } from '../errors.js';

/** Reads `Authorization: Bearer …`; a malformed or unknown credential is a 401, a missing one is anonymous. */
export function bearerTokenOf(req: Request): string | null {
  const header = req.header('authorization');
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthorized('Authorization header must be "Bearer <token>"', 'invalid_authorization_header');
  return match[1]!;
}
