import type { RequestContext } from '../../../shared/context.js';
import { AppError, unauthorized } from '../../../shared/errors.js';
import type { PublisherEndpoint } from '../entities/endpoint.js';
import type { PublisherPricing } from '../entities/pricing.js';
import type { Publisher } from '../entities/publisher.js';
import { publisherForCall, type PublisherForCall } from '../services/load-publisher-for-call.js';
import { matchAllowedEndpoint, NO_MATCH } from '../services/call-access.js';
import { priceOfCall, reserveFor, type CallPrice } from '../services/pricing.js';
import { pricingOf } from '../services/pricing-of.js';
import { userOAuthTokenFor } from './user-oauth.js';

export interface CallTarget {
  loaded: PublisherForCall;
  publisher: Publisher;
  endpoint: PublisherEndpoint | null;
  pricing: PublisherPricing;
  /** The list price (what per-request pricing charges). */
  price: CallPrice;
  /** What is held before the call: the price, or the pay-per-use ceiling. */
  reserve: bigint;
  /** pay_per_use: the final amount comes from the upstream's answer. */
  chargesUpstreamCost: boolean;
  /** public_anonymous endpoints need no credential. */
  anonymousAllowed: boolean;
  /** x402_per_request: the call may be paid on-chain, per request. */
  payableOnChain: boolean;
  /** requires_user_oauth: the caller's own provider token, sent upstream instead of the publisher's key. */
  userToken: string | null;
}

/** A call as it is priced: a tool call names a tool, not a path (its path is not matched), and is priced per execution. */
export interface PricedCall {
  method: string;
  path: string;
  rows: number;
  viaTools: boolean;
}

/**
 * Which endpoint a call takes (refusing one it may not take) and what it costs: the one decision
 * the proxy charges by and the estimate quotes.
 */
export function priceCallOn(loaded: PublisherForCall, call: PricedCall): { endpoint: PublisherEndpoint | null; pricing: PublisherPricing; price: CallPrice } {
  const { publisher } = loaded;
  const { endpoint, lookalike } = call.viaTools ? NO_MATCH : matchAllowedEndpoint(publisher, loaded.endpoints, call.method, call.path);
  const pricing = pricingOf(loaded.pricing);
  const shape = { method: call.method, rows: call.rows, execution: call.viaTools || publisher.publisherCategory === 'compute' };
  return { endpoint, pricing, price: priceOfCall(pricing, endpoint, lookalike, shape, publisher.gatewayFeePercent) };
}

/** The upstream cannot be called for lack of settings the publisher must provide. */
function assertUpstreamConfigured(loaded: PublisherForCall, viaTools: boolean): void {
  const { publisher, secrets } = loaded;
  const base = viaTools ? publisher.mcpEndpoint : publisher.apiUrl;
  const needsKey = Boolean(publisher.apiKeyHeader || publisher.apiKeyQueryParam) && !publisher.tokenExchangeUrl && !publisher.requiresUserOauth;
  const missing = !base || (needsKey && !secrets.upstreamApiKey) || (publisher.tokenExchangeUrl && !secrets.tokenExchangeCredentials && !secrets.upstreamApiKey);
  if (missing) {
    throw new AppError(503, 'upstream_not_configured', `Publisher ${publisher.slug} has no working upstream configuration yet; nothing was charged`);
  }
}

/**
 * Everything decided before a call goes out: which publisher and endpoint, whether the caller may
 * make it, and what it costs. Refusals here happen before any money or upstream byte moves.
 */
export async function resolveCallTarget(
  context: RequestContext,
  call: { slug: string; method: string; path: string; viaTools?: boolean },
): Promise<CallTarget> {
  const loaded = await publisherForCall(context.services, context.em, call.slug);
  const { publisher } = loaded;
  const { endpoint, pricing, price } = priceCallOn(loaded, { method: call.method, path: call.path, rows: 0, viaTools: Boolean(call.viaTools) });
  const anonymousAllowed = endpoint?.access === 'public_anonymous';
  const payableOnChain = publisher.billingModel === 'x402_per_request' && price.total > 0n;
  // A caller without an account can still pay an x402_per_request publisher on-chain; a call that
  // costs nothing has nothing to pay, so it needs a credential like any other.
  if (!anonymousAllowed && !context.identity && !payableOnChain) throw unauthorized();
  assertUpstreamConfigured(loaded, Boolean(call.viaTools));
  const userToken = await userOAuthTokenFor(context, publisher);
  // A free public endpoint costs nothing, whatever the publisher's model: nothing is held for it.
  const chargesUpstreamCost = publisher.billingModel === 'pay_per_use' && !(anonymousAllowed && price.total === 0n);
  const reserve = chargesUpstreamCost ? reserveFor(pricing, price) : price.total;
  // Saved before pay_per_use needed a reserve_max_charge: nothing to hold, so it is not called for free.
  if (chargesUpstreamCost && reserve === 0n) {
    throw new AppError(503, 'upstream_not_configured', `Publisher ${publisher.slug} sets no reserve_max_charge for its pay-per-use calls; nothing was charged`);
  }
  return {
    loaded,
    publisher,
    endpoint,
    pricing,
    price,
    reserve,
    chargesUpstreamCost,
    anonymousAllowed,
    payableOnChain,
    userToken,
  };
}
