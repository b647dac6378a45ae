import { spendOrRefuse } from '../../../shared/rate-limit.js';
import type { RequestContext } from '../../../shared/context.js';

/**
 * Per account tight, per address generous: a test suite or an office behind one address can create
 * hundreds of accounts, while guessing one account's password stays slow.
 */
export const LIMITS = {
  loginPerAccount: { limit: 10, windowSeconds: 60 },
  loginPerAddress: { limit: 1000, windowSeconds: 60 },
  emailPerAccount: { limit: 5, windowSeconds: 3600 },
  emailPerAddress: { limit: 600, windowSeconds: 60 },
  agentPerAddress: { limit: 600, windowSeconds: 60 },
  invitePerInviter: { limit: 50, windowSeconds: 3600 },
  invitePerAddress: { limit: 5, windowSeconds: 3600 },
} as const;

type LimitName = keyof typeof LIMITS;

export async function enforceLimit(context: RequestContext, name: LimitName, subject: string): Promise<void> {
  const { limit, windowSeconds } = LIMITS[name];
  await spendOrRefuse(context.services.rateLimiter, `${name}:${subject}`, limit, windowSeconds);
}
