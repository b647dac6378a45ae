import type { PublisherEndpoint } from '../entities/endpoint.js';
import { endpointIgnoringCase } from './match-endpoint.js';
import { priceCall, type CallPrice, type CallShape, type PricingTerms } from './pricing.js';

/**
 * What a call to `path` costs: its endpoint's price, or the default price when the path matches no
 * endpoint as spelled. An upstream that ignores letter case serves `/Premium/1` as the documented
 * `/premium/{id}`, and `/reports/PREMIUM` as `/reports/premium` rather than `/reports/{name}`, so a
 * call pays the higher of that price and the price of the endpoint it matches ignoring case: a
 * change of case never makes a call cheaper. (Access still follows the exact spelling only.)
 */
export function priceAtPath(
  pricing: PricingTerms,
  endpoints: readonly PublisherEndpoint[] | null,
  endpoint: PublisherEndpoint | null,
  call: CallShape & { path: string },
  gatewayFeePercent: bigint,
): CallPrice {
  const price = priceCall(pricing, endpoint, call, gatewayFeePercent);
  const lookalike = endpointIgnoringCase(endpoints, call.method, call.path);
  if (!lookalike || lookalike === endpoint) return price;
  const lookalikePrice = priceCall(pricing, lookalike, call, gatewayFeePercent);
  return lookalikePrice.total > price.total ? lookalikePrice : price;
}
