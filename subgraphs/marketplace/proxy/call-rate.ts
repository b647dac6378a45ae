import { spendOrRefuse } from '../../../shared/rate-limit.js';
import type { Identity, RequestContext } from '../../../shared/context.js';
import type { PublisherPricing } from '../entities/pricing.js';
import type { Publisher } from '../entities/publisher.js';

const callerKey = (identity: Identity | null, ip: string) => (identity ? `user:${identity.userId}` : `ip:${ip}`);

/**
 * max_queries_per_minute, per caller (account, else address), for everything that reaches the
 * publisher: calls, tool calls, tool and resource listings.
 */
export async function enforceCallRate(context: RequestContext, target: { publisher: Publisher; pricing: PublisherPricing }): Promise<void> {
  const limit = target.pricing.maxQueriesPerMinute;
  if (!limit) return;
  const key = `publisher-calls:${target.publisher.id}:${callerKey(context.identity, context.ip)}`;
  await spendOrRefuse(context.services.rateLimiter, key, limit, 60);
}
