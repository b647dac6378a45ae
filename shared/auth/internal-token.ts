import { SignJWT, jwtVerify } from 'jose';
import type { Identity } from '../context.js';

const ISSUER = 'platform-gateway';
const AUDIENCE = 'platform-subgraph';

/** Split mode: the gateway vouches for the caller with a 60-second token signed by INTERNAL_SECRET. */
export async function signInternalIdentity(secret: string, requestId: string, identity: Identity | null): Promise<string> {
  return new SignJWT({ identity, rid: requestId })
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
): Promise<{ identity: Identity | null; requestId: string }> {
  const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), { issuer: ISSUER, audience: AUDIENCE });
  return { identity: (payload.identity as Identity | null) ?? null, requestId: String(payload.rid ?? '') };
}

export const INTERNAL_IDENTITY_HEADER = 'x-internal-identity';
