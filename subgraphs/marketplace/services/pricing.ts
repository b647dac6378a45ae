import { divideUp, MICRO } from './decimal.js';

/** The pricing fields that decide what a call costs; amounts in micro-dollars, multiplier in micro-units. */
export interface PricingTerms {
  pricingModel: 'per_request' | 'per_row';
  basePricePer1000Rows: bigint;
  /** 1_000_000n is 1x. */
  markupMultiplier: bigint;
  minCharge: bigint;
  pricePerCall: bigint | null;
  pricePerGet: bigint | null;
  pricePerPost: bigint | null;
  pricePerPut: bigint | null;
  pricePerPatch: bigint | null;
  pricePerDelete: bigint | null;
  pricePerExecution: bigint | null;
  unresolvedFallbackCharge: bigint | null;
  reserveMaxCharge: bigint | null;
}

export interface CallShape {
  method: string;
  /** Rows the call reads, for per_row pricing. */
  rows?: number | bigint;
  /** A compute publisher's function run: price_per_execution comes before price_per_call. */
  execution?: boolean;
}

export interface CallPrice {
  /** The price before markup and fee (after the minimum charge). */
  base: bigint;
  markup: bigint;
  fee: bigint;
  total: bigint;
  minimumApplied: boolean;
}

const PER_METHOD: Record<string, keyof PricingTerms> = {
  GET: 'pricePerGet',
  // A HEAD is the GET without its body.
  HEAD: 'pricePerGet',
  POST: 'pricePerPost',
  PUT: 'pricePerPut',
  PATCH: 'pricePerPatch',
  DELETE: 'pricePerDelete',
};

/** What pricing needs to know of an endpoint: its own price, and who may call it. */
export interface PricedEndpoint {
  price: bigint | null;
  access?: string | null;
}

/** General prices (per call, per method, per row) are for authenticated endpoints: a public one is priced by its own price alone. */
const isPublic = (endpoint: PricedEndpoint | null) => endpoint?.access === 'public_anonymous';

const FREE: CallPrice = { base: 0n, markup: 0n, fee: 0n, total: 0n, minimumApplied: false };

/** The list price of one call before minimum, markup and fee. */
export function listPrice(pricing: PricingTerms, endpoint: PricedEndpoint | null, call: CallShape): bigint {
  if (isPublic(endpoint)) return endpoint!.price ?? 0n;
  if (pricing.pricingModel === 'per_row') {
    return divideUp(pricing.basePricePer1000Rows * BigInt(call.rows ?? 0), 1000n);
  }
  if (endpoint?.price !== null && endpoint?.price !== undefined) return endpoint.price;
  const byMethod = PER_METHOD[call.method.toUpperCase()];
  const methodPrice = byMethod ? (pricing[byMethod] as bigint | null) : null;
  if (methodPrice !== null) return methodPrice;
  if (call.execution && pricing.pricePerExecution !== null) return pricing.pricePerExecution;
  return pricing.pricePerCall ?? 0n;
}

/** A known amount, raised to the minimum charge, times the markup, plus the gateway fee on top. */
export function applyCharges(amount: bigint, pricing: PricingTerms, gatewayFeePercent: bigint): CallPrice {
  const minimumApplied = amount < pricing.minCharge;
  const base = minimumApplied ? pricing.minCharge : amount;
  const marked = divideUp(base * pricing.markupMultiplier, MICRO);
  const fee = divideUp(marked * gatewayFeePercent, 100n * MICRO);
  return { base, markup: marked - base, fee, total: marked + fee, minimumApplied };
}

/**
 * What one call costs: the endpoint's own price first (a public_anonymous endpoint has no other:
 * without one it is free), else price_per_<method>, else (compute)
 * price_per_execution, else price_per_call; per_row pricing uses base_price_per_1000_rows on the
 * row count. Never above reserve_max_charge (what a reserve/settle call can hold). The proxy charges
 * with this same function.
 */
export function priceCall(
  pricing: PricingTerms,
  endpoint: PricedEndpoint | null,
  call: CallShape,
  gatewayFeePercent: bigint,
): CallPrice {
  // No minimum charge either: a public endpoint without a price of its own is free.
  if (isPublic(endpoint) && endpoint!.price === null) return FREE;
  return capAt(applyCharges(listPrice(pricing, endpoint, call), pricing, gatewayFeePercent), pricing.reserveMaxCharge, gatewayFeePercent);
}

/**
 * What a call costs: its endpoint's price (the default price when its spelling matches none). An
 * upstream that ignores letter case serves `/Premium/1` as the documented `/premium/{id}`, and
 * `/reports/PREMIUM` as `/reports/premium` rather than `/reports/{name}`, so a call pays the higher
 * of that and the price of `lookalike`, the endpoint it matches ignoring case: a change of case
 * never makes a call cheaper. (Access still follows the exact spelling only.)
 */
export function priceOfCall<E extends PricedEndpoint>(
  pricing: PricingTerms,
  endpoint: E | null,
  lookalike: E | null,
  call: CallShape,
  gatewayFeePercent: bigint,
): CallPrice {
  const price = priceCall(pricing, endpoint, call, gatewayFeePercent);
  if (!lookalike || lookalike === endpoint) return price;
  const lookalikePrice = priceCall(pricing, lookalike, call, gatewayFeePercent);
  return lookalikePrice.total > price.total ? lookalikePrice : price;
}

/**
 * pay_per_use publishers report their cost in the response: charge it with markup and fee; when it
 * cannot be read, charge unresolved_fallback_charge (or the reserved amount). Never above
 * reserve_max_charge, nor above `held` (what was reserved for the call).
 */
export function priceUpstreamCost(pricing: PricingTerms, upstreamCost: bigint | null, gatewayFeePercent: bigint, held: bigint | null = null): CallPrice {
  const amount = upstreamCost ?? pricing.unresolvedFallbackCharge ?? pricing.reserveMaxCharge ?? 0n;
  const price = capAt(applyCharges(amount, pricing, gatewayFeePercent), pricing.reserveMaxCharge, gatewayFeePercent);
  return capAt(price, held, gatewayFeePercent);
}

/** How much to reserve before a call whose final cost is known only afterwards. */
export function reserveFor(pricing: PricingTerms, estimate: CallPrice): bigint {
  return pricing.reserveMaxCharge ?? estimate.total;
}

/**
 * A capped price keeps the fee's share: the fee is gateway_fee_percent on top of the marked-up
 * price, so of a capped total `cap` it is cap·p/(100+p) (rounded up, like the fee itself), and the
 * publisher's part is the rest.
 */
function capAt(price: CallPrice, cap: bigint | null, gatewayFeePercent: bigint): CallPrice {
  if (cap === null || price.total <= cap) return price;
  const fee = divideUp(cap * gatewayFeePercent, 100n * MICRO + gatewayFeePercent);
  const marked = cap - fee;
  const base = price.base < marked ? price.base : marked;
  return { ...price, base, fee, markup: marked - base, total: cap };
}
