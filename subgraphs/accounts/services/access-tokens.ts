import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { unauthorized } from '../../../shared/errors.js';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
const ISSUER = 'agent-commerce-platform';
const AUDIENCE = 'platform-api';

const keys = new Map<string, Uint8Array>();
const keyOf = (secret: string) => {
  let key = keys.get(secret);
  if (!key) keys.set(secret, (key = new TextEncoder().encode(secret)));
  return key;
};

export interface AccessClaims {
  userId: string;
  sessionId: string;
}

export function signAccessToken(secret: string, claims: AccessClaims): Promise<string> {
  return new SignJWT({ sid: claims.sessionId, typ: 'access' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
    .sign(keyOf(secret));
}

export async function verifyAccessToken(secret: string, token: string): Promise<AccessClaims> {
  try {
    const { payload } = await jwtVerify(token, keyOf(secret), { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'] });
    if (payload.typ !== 'access' || typeof payload.sub !== 'string' || typeof payload.sid !== 'string') {
      throw unauthorized('Invalid access token', 'invalid_token');
    }
    return { userId: payload.sub, sessionId: payload.sid };
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw unauthorized('Access token expired', 'token_expired');
    if (error instanceof joseErrors.JOSEError) throw unauthorized('Invalid access token', 'invalid_token');
    throw error;
  }
}
