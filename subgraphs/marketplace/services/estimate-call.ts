import type { RequestContext } from '../../../shared/context.js';
import { badRequest } from '../../../shared/errors.js';
import { HTTP_METHODS, USD_ASSET_ID } from '../entities/constants.js';
import { PublisherEndpoint } from '../entities/endpoint.js';
import { PublisherPricing } from '../entities/pricing.js';
import type { Publisher } from '../entities/publisher.js';
import type { EstimateInput } from '../types/inputs.js';
import { formatMicros } from './decimal.js';
import { findActivePublisher } from './find-publisher.js';
import { matchEndpoint } from './match-endpoint.js';
import { priceCall, type PricingTerms } from './pricing.js';
import { isMarketplaceSubpath } from './reserved-paths.js';
import { oneOf } from './validate.js';

export interface Estimate {
  estimatedCost: string;
  currency: string;
  breakdown: { base: string; markup: string; gatewayFee: string; minimumApplied: boolean };
  pricingModel: string;
}

/** A publisher without a pricing record charges nothing. */
const FREE: PricingTerms = Object.assign(new PublisherPricing(), { assetId: USD_ASSET_ID });

/** The proxy also takes HEAD (priced as the GET of its path). */
const ESTIMABLE_METHODS = [...HTTP_METHODS, 'HEAD'] as const;

/** As the data plane routes it: a POST of one segment to a tool-protocol publisher calls that tool (priced per execution). */
const isToolCall = (publisher: Publisher, method: string, path: string | null | undefined) =>
  Boolean(publisher.mcpEndpoint) && method === 'POST' && (path ?? '').split('/').filter(Boolean).length === 1 && !isMarketplaceSubpath(method, path!);

/** POST /publishers/{slug}/estimate: what a call would cost, from the same function the proxy charges with. */
export async function estimateCall(context: RequestContext, slug: string, input: EstimateInput): Promise<Estimate> {
  const publisher = await findActivePublisher(context.em, slug);
  if (input.publisherId !== publisher.id) throw badRequest('publisher_mismatch', 'publisher_id does not match the publisher of this path');
  if (input.rows != null && (!Number.isInteger(input.rows) || input.rows < 0)) throw badRequest('invalid_rows', 'rows must be 0 or more');
  const method = oneOf((input.method ?? (publisher.publisherCategory === 'database' ? 'POST' : 'GET')).toUpperCase(), ESTIMABLE_METHODS, 'method');
  const pricingRows = await context.em.find(PublisherPricing, { publisherId: publisher.id });
  const pricing = pricingRows.find((row) => row.assetId === USD_ASSET_ID) ?? pricingRows[0] ?? FREE;
  const toolCall = isToolCall(publisher, method, input.path);
  const endpoints = input.path && !toolCall ? await context.em.find(PublisherEndpoint, { publisherId: publisher.id }, { orderBy: { position: 'asc' } }) : [];
  const endpoint = input.path && !toolCall ? (matchEndpoint(endpoints, method, input.path)?.endpoint ?? null) : null;
  const price = priceCall(
    pricing,
    endpoint,
    { method, rows: input.rows ?? 0, execution: toolCall || publisher.publisherCategory === 'compute' },
    publisher.gatewayFeePercent,
  );
  return {
    estimatedCost: formatMicros(price.total),
    currency: (pricing as PublisherPricing).assetSymbol ?? 'USD',
    breakdown: {
      base: formatMicros(price.base),
      markup: formatMicros(price.markup),
      gatewayFee: formatMicros(price.fee),
      minimumApplied: price.minimumApplied,
    },
    pricingModel: pricing.pricingModel,
  };
}
