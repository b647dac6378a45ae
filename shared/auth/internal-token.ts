import { SignJWT, jwtVerify } from 'jose';
import type { Identity } from '../context.js';

const ISSUER = 'platform-gateway';
const AUDIENCE = 'platform-subgraph';

/**
 * Split mode: the gateway vouches for the caller with a 60-second token signed by INTERNAL_SECRET:
 * who it is, and the address the gateway saw (a subgraph only sees the gateway's).
 */
export async function signInternalIdentity(secret: string, requestId: string, identity: Identity | null, ip: string | null = null): Promise<string> {
  return new SignJWT({ identity, rid: requestId, ip })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime('60s')
    .sign(new TextEncoder().encode(secret));
}

export async function verifyInternalIdentity(
  secret: string,
  token: string,
): Promise<{ identity: Identity | null; requestId: string; ip: string | null }> {
  const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), { issuer: ISSUER, audience: AUDIENCE });
  return {
    identity: (payload.identity as Identity | null) ?? null,
    requestId: String(payload.rid ?? ''),
    ip: typeof payload.ip === 'string' ? payload.ip : null,
  };
}

export const INTERNAL_IDENTITY_HEADER = 'x-internal-identity';
