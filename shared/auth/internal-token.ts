import { createHash, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { Identity } from '../context.js';

const ISSUER = 'platform-gateway';
const LIFETIME = '30s';

/** Each subgraph accepts only tokens made out to it. */
const audienceOf = (subgraph: string) => `platform-subgraph:${subgraph}`;

/** The operation a token was made for: its document and variables, as sent. */
export function operationDigest(query: string | undefined, variables: unknown): string {
  return createHash('sha256')
    .update(`${query ?? ''}\n${JSON.stringify(variables ?? {})}`)
    .digest('base64url');
}

export interface InternalCall {
  subgraph: string;
  requestId: string;
  identity: Identity | null;
  /** The caller is the platform operator (ADMIN_API_KEYS). */
  operator?: boolean;
  ip: string | null;
  /** operationDigest of what is sent with the token. */
  operation: string;
}

/**
 * Split mode: the gateway vouches for the caller with a short-lived token signed by
 * INTERNAL_SECRET: who it is and the address the gateway saw (a subgraph only sees the
 * gateway's), made out to one subgraph for one operation, so a token seen on the way cannot be
 * used at another subgraph or with another query.
 */
export async function signInternalIdentity(secret: string, call: InternalCall): Promise<string> {
  return new SignJWT({ identity: call.identity, operator: call.operator === true, rid: call.requestId, ip: call.ip, op: call.operation })
    .setProtectedHeader({ alg: 'HS256' })
    .setJti(randomUUID())
    .setIssuer(ISSUER)
    .setAudience(audienceOf(call.subgraph))
    .setIssuedAt()
    .setExpirationTime(LIFETIME)
    .sign(new TextEncoder().encode(secret));
}

/**
 * The gateway tokens a subgraph process has accepted, kept until they expire: a token is good for
 * one request, so one seen on the way cannot run its operation again (a paid call, a new key).
 * With several replicas of a subgraph the record must be shared (spent-tokens.ts keeps it in Redis).
 */
export interface SpentTokens {
  /** False when `id` was spent already; `expiresAt` in seconds since the epoch. */
  spend(id: string, expiresAt: number): Promise<boolean>;
  close(): Promise<void>;
}

/** One process's own record (one replica per subgraph). */
export class SpentGatewayTokens implements SpentTokens {
  private readonly until = new Map<string, number>();

  async spend(id: string, expiresAt: number, nowSeconds = Date.now() / 1000): Promise<boolean> {
    // Every token lives LIFETIME, so the oldest entries come first: expired ones are dropped from the front.
    for (const [spent, expiry] of this.until) {
      if (expiry >= nowSeconds) break;
      this.until.delete(spent);
    }
    if (this.until.has(id)) return false;
    this.until.set(id, expiresAt);
    return true;
  }

  async close(): Promise<void> {}
}

/** Throws unless the token was made out to `subgraph` for the operation received (its digest), and not used before. */
export async function verifyInternalIdentity(
  secret: string,
  token: string,
  expected: { subgraph: string; operation: string; spent: SpentTokens },
): Promise<{ identity: Identity | null; operator: boolean; requestId: string; ip: string | null }> {
  const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), { issuer: ISSUER, audience: audienceOf(expected.subgraph) });
  if (payload.op !== expected.operation) throw new Error('The gateway token was made for another operation');
  if (typeof payload.jti !== 'string' || !(await expected.spent.spend(payload.jti, payload.exp ?? 0))) throw new Error('The gateway token was used already');
  return {
    identity: (payload.identity as Identity | null) ?? null,
    operator: payload.operator === true,
    requestId: String(payload.rid ?? ''),
    ip: typeof payload.ip === 'string' ? payload.ip : null,
  };
}

export const INTERNAL_IDENTITY_HEADER = 'x-internal-identity';
