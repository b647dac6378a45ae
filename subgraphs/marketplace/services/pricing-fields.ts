import { badRequest } from '../../../shared/errors.js';
import { isUuid } from '../../../shared/ids.js';
import { PRICING_MODELS, USD_ASSET_ID, USD_ASSET_SYMBOL } from '../entities/constants.js';
import { PublisherPricing } from '../entities/pricing.js';
import type { PricingInput } from '../types/inputs.js';
import { MAX_MULTIPLIER, parseMicros, parseOptionalMicros } from './decimal.js';
import { intBetween, nonNegativeInt, oneOf } from './validate.js';

const OPTIONAL_AMOUNTS = [
  'unresolvedFallbackCharge', 'reserveMaxCharge', 'pricePerCall', 'pricePerGet', 'pricePerPost', 'pricePerPut',
  'pricePerDelete', 'pricePerPatch', 'pricePerExecution', 'hourlyRate', 'minDisplayPrice',
] as const;
const AMOUNTS = ['basePricePer1000Rows', 'minCharge', 'minimumBalance', 'lowBalanceThreshold'] as const;

const snake = (name: string) => name.replace(/([a-z])([A-Z0-9])/g, '$1_$2').toLowerCase();

/** Validated pricing rows, one per accepted asset (USD when none is named). */
export function buildPricing(publisherId: string, inputs: PricingInput[]): PublisherPricing[] {
  const seen = new Set<string>();
  return inputs.map((input, index) => {
    const row = new PublisherPricing();
    const field = (name: string) => `pricing[${index}].${snake(name)}`;
    row.publisherId = publisherId;
    row.assetId = input.assetId ?? USD_ASSET_ID;
    if (!isUuid(row.assetId)) throw badRequest('invalid_uuid', `${field('assetId')} must be a uuid`);
    if (seen.has(row.assetId)) throw badRequest('duplicate_asset', 'Each accepted asset has one pricing record');
    seen.add(row.assetId);
    row.assetSymbol = input.assetSymbol ?? (row.assetId === USD_ASSET_ID ? USD_ASSET_SYMBOL : null);
    row.pricingModel = input.pricingModel ? oneOf(input.pricingModel, PRICING_MODELS, 'pricing_model') : 'per_request';
    for (const name of AMOUNTS) if (input[name] != null) row[name] = parseMicros(input[name], field(name));
    for (const name of OPTIONAL_AMOUNTS) row[name] = parseOptionalMicros(input[name], field(name));
    if (input.markupMultiplier != null) row.markupMultiplier = parseMicros(input.markupMultiplier, field('markupMultiplier'), MAX_MULTIPLIER);
    // A payment authorization valid for 0 minutes could never be used; one valid for longer than a day is a standing risk.
    row.paymentExpiryMinutes = intBetween(input.paymentExpiryMinutes ?? 5, field('paymentExpiryMinutes'), 1, 1440)!;
    row.gracePeriodMinutes = nonNegativeInt(input.gracePeriodMinutes ?? null, field('gracePeriodMinutes'));
    // null is "no limit"; 0 would read as no limit too, so it is refused rather than misunderstood.
    row.maxQueriesPerMinute = intBetween(input.maxQueriesPerMinute ?? null, field('maxQueriesPerMinute'), 1, 1_000_000);
    row.prepaidEnabled = input.prepaidEnabled ?? true;
    row.onchainEnabled = input.onchainEnabled ?? false;
    row.pricingDisplayText = input.pricingDisplayText ?? null;
    return row;
  });
}

/**
 * A pay_per_use call reserves reserve_max_charge before the upstream reports its cost, and is never
 * charged more: without one there is nothing to hold, and the call would be free.
 */
export function assertPayPerUseReserve(pricing: Pick<PublisherPricing, 'reserveMaxCharge'>[]): void {
  if (pricing.length === 0 || pricing.some((row) => !row.reserveMaxCharge)) {
    throw badRequest(
      'reserve_max_charge_required',
      'A pay_per_use publisher needs a pricing record with reserve_max_charge above 0 for each asset: a call reserves it before its cost is known',
    );
  }
}
