import { spendOrRefuse } from '../../../shared/rate-limit.js';
import type { PlatformServices } from '../../../shared/services.js';

/**
 * Each authorization stores a state row, and the callback is open to anyone: both are bounded,
 * generously (a person links an account a few times a day; an office shares one address).
 */
const LIMITS = {
  authorizePerUser: { limit: 60, windowSeconds: 60 },
  callbackPerAddress: { limit: 600, windowSeconds: 60 },
} as const;

export async function enforceOAuthLimit(services: PlatformServices, name: keyof typeof LIMITS, subject: string): Promise<void> {
  const { limit, windowSeconds } = LIMITS[name];
  await spendOrRefuse(services.rateLimiter, `oauth:${name}:${subject}`, limit, windowSeconds);
}
