import { badRequest } from './errors.js';

/** Micro-dollars per dollar: amounts are integers with 6 decimals inside (the USDC atomic scale). */
export const MICROS_PER_DOLLAR = 1_000_000n;
export const MICROS_PER_CENT = 10_000n;

const DECIMAL = /^(\d{1,15})(?:\.(\d{1,6}))?$/;

/**
 * A plain non-negative decimal with at most 6 decimals as micro-units, or null. JSON numbers are
 * read through their shortest printed form only when `numbers` allows them.
 */
export function decimalToMicros(value: unknown, numbers: 'integers' | 'finite'): bigint | null {
  const readable = typeof value === 'number' && (numbers === 'finite' ? Number.isFinite(value) : Number.isInteger(value));
  const text = readable ? String(value) : value;
  const match = typeof text === 'string' ? DECIMAL.exec(text.trim()) : null;
  return match ? BigInt(match[1]!) * MICROS_PER_DOLLAR + BigInt((match[2] ?? '').padEnd(6, '0')) : null;
}

/** "0.10" -> 100000n. Refuses negatives, exponents, more than 6 decimals and anything not a plain decimal (400). */
export function parseMoney(value: unknown, field = 'amount'): bigint {
  const micros = decimalToMicros(value, 'integers');
  if (micros === null) {
    throw badRequest('invalid_amount', `${field} must be a non-negative decimal string with at most 6 decimals, e.g. "0.10"`);
  }
  return micros;
}

/** A strictly positive amount. */
export function parsePositiveMoney(value: unknown, field = 'amount'): bigint {
  const micros = parseMoney(value, field);
  if (micros <= 0n) throw badRequest('invalid_amount', `${field} must be greater than zero`);
  return micros;
}

/** 100000n -> "0.10", 1234n -> "0.001234", -500000n -> "-0.50": at least 2 decimals, no trailing zeros beyond. */
export function formatMoney(micros: bigint): string {
  const negative = micros < 0n;
  const absolute = negative ? -micros : micros;
  const whole = absolute / MICROS_PER_DOLLAR;
  const fraction = (absolute % MICROS_PER_DOLLAR).toString().padStart(6, '0').replace(/0+$/, '').padEnd(2, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

export const centsToMicros = (cents: number | bigint): bigint => BigInt(cents) * MICROS_PER_CENT;

/** Whole cents only; a fraction of a cent is refused rather than rounded. */
export function microsToCents(micros: bigint): bigint {
  if (micros % MICROS_PER_CENT !== 0n) throw badRequest('invalid_amount', 'Amount is not a whole number of cents');
  return micros / MICROS_PER_CENT;
}
