import { badRequest } from '../../../shared/errors.js';
import { decimalToMicros, formatMoney, MICROS_PER_DOLLAR } from '../../../shared/money.js';

/** Prices, multipliers and percentages are held as integers with 6 decimals (micro-units). */
export const MICRO = MICROS_PER_DOLLAR;

/**
 * The largest price a publisher may set (1,000,000 USD) and the largest markup (100×): with the
 * gateway fee at most 100 %, any charge worked out from them fits the ledger's 64-bit amounts.
 */
export const MAX_PRICE = 1_000_000n * MICRO;
export const MAX_MULTIPLIER = 100n * MICRO;

/** "0.001" -> 1000n. Non-negative, at most 6 decimals, at most `max`; anything else is a 400 naming the field. */
export function parseMicros(value: unknown, field: string, max = MAX_PRICE): bigint {
  const micros = decimalToMicros(value, 'finite');
  if (micros === null) {
    throw badRequest('invalid_decimal', `${field} must be a non-negative decimal string with at most 6 decimals, e.g. "0.01"`);
  }
  if (micros > max) throw badRequest('invalid_decimal', `${field} must be at most ${formatMoney(max)}`);
  return micros;
}

export const parseOptionalMicros = (value: unknown, field: string): bigint | null =>
  value === null || value === undefined ? null : parseMicros(value, field);

/** 1000n -> "0.001", 100000n -> "0.10", 2500000n -> "2.50" (the platform's one money format). */
export const formatMicros = formatMoney;

export const formatOptionalMicros = (micros: bigint | null | undefined): string | null =>
  micros === null || micros === undefined ? null : formatMicros(BigInt(micros));

/** Integer division rounding up (charges never round in the payer's favour below a micro-dollar). */
export const divideUp = (numerator: bigint, denominator: bigint) => (numerator + denominator - 1n) / denominator;
