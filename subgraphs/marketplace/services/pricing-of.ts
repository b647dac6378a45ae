import { USD_ASSET_ID } from '../entities/constants.js';
import { PublisherPricing } from '../entities/pricing.js';

/** A publisher without a pricing record charges nothing. */
const FREE_PRICING: PublisherPricing = Object.assign(new PublisherPricing(), { assetId: USD_ASSET_ID });

/** The pricing record calls are priced with (estimates and charges alike): the USD one, else the first. */
export function pricingOf(rows: PublisherPricing[]): PublisherPricing {
  return rows.find((row) => row.assetId === USD_ASSET_ID) ?? rows[0] ?? FREE_PRICING;
}
