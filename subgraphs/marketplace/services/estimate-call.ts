import type { RequestContext } from '../../../shared/context.js';
import { badRequest } from '../../../shared/errors.js';
import { HTTP_METHODS } from '../entities/constants.js';
import { PublisherEndpoint } from '../entities/endpoint.js';
import { PublisherPricing } from '../entities/pricing.js';
import type { Publisher } from '../entities/publisher.js';
import type { EstimateInput } from '../types/inputs.js';
import { formatMicros } from './decimal.js';
import { findActivePublisher } from './find-publisher.js';
import { matchAllowedEndpoint, type AllowedMatch } from './call-access.js';
import { priceOfCall } from './pricing.js';
import { pricingOf } from './pricing-of.js';
import { toolCallName } from './reserved-paths.js';
import { oneOf } from './validate.js';

export interface Estimate {
  estimatedCost: string;
  currency: string;
  breakdown: { base: string; markup: string; gatewayFee: string; minimumApplied: boolean };
  pricingModel: string;
}

/** The proxy also takes HEAD (priced as the GET of its path). */
const ESTIMABLE_METHODS = [...HTTP_METHODS, 'HEAD'] as const;

const NO_ENDPOINT: AllowedMatch = { endpoint: null, lookalike: null };

/** As the proxy decides it: a path the call could not take is refused here too, not priced. */
async function allowedMatch(context: RequestContext, publisher: Publisher, method: string, path: string): Promise<AllowedMatch> {
  const endpoints = publisher.hasEndpoints
    ? await context.em.find(PublisherEndpoint, { publisherId: publisher.id }, { orderBy: { position: 'asc' } })
    : null;
  return matchAllowedEndpoint(publisher, endpoints, method, path);
}

/** POST /publishers/{slug}/estimate: what a call would cost, from the same function the proxy charges with. */
export async function estimateCall(context: RequestContext, slug: string, input: EstimateInput): Promise<Estimate> {
  const publisher = await findActivePublisher(context.em, slug);
  if (input.publisherId !== publisher.id) throw badRequest('publisher_mismatch', 'publisher_id does not match the publisher of this path');
  if (input.rows != null && (!Number.isInteger(input.rows) || input.rows < 0)) throw badRequest('invalid_rows', 'rows must be 0 or more');
  const method = oneOf((input.method ?? (publisher.publisherCategory === 'database' ? 'POST' : 'GET')).toUpperCase(), ESTIMABLE_METHODS, 'method');
  const pricing = pricingOf(await context.em.find(PublisherPricing, { publisherId: publisher.id }));
  // As the data plane routes it: a tool call is priced per execution.
  const toolCall = Boolean(publisher.mcpEndpoint) && toolCallName(method, input.path ?? '') !== null;
  // A tool call names a tool, not an endpoint; any other call without a path is the root resource, as the proxy routes it.
  const { endpoint, lookalike } = toolCall ? NO_ENDPOINT : await allowedMatch(context, publisher, method, input.path || '/');
  const price = priceOfCall(
    pricing,
    endpoint,
    lookalike,
    { method, rows: input.rows ?? 0, execution: toolCall || publisher.publisherCategory === 'compute' },
    publisher.gatewayFeePercent,
  );
  return {
    estimatedCost: formatMicros(price.total),
    currency: pricing.assetSymbol ?? 'USD',
    breakdown: {
      base: formatMicros(price.base),
      markup: formatMicros(price.markup),
      gatewayFee: formatMicros(price.fee),
      minimumApplied: price.minimumApplied,
    },
    pricingModel: pricing.pricingModel,
  };
}
