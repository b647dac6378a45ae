import { badRequest } from '../../../shared/errors.js';

/** Prices, multipliers and percentages are held as integers with 6 decimals (micro-units). */
export const MICRO = 1_000_000n;
const DECIMAL = /^(\d{1,12})(?:\.(\d{1,6}))?$/;

/** "0.001" -> 1000n. Non-negative, at most 6 decimals; anything else is a 400 naming the field. */
export function parseMicros(value: unknown, field: string): bigint {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  const match = typeof text === 'string' ? DECIMAL.exec(text.trim()) : null;
  if (!match) {
    throw badRequest('invalid_decimal', `${field} must be a non-negative decimal string with at most 6 decimals, e.g. "0.01"`);
  }
  return BigInt(match[1]!) * MICRO + BigInt((match[2] ?? '').padEnd(6, '0'));
}

export const parseOptionalMicros = (value: unknown, field: string): bigint | null =>
  value === null || value === undefined ? null : parseMicros(value, field);

/** 1000n -> "0.001", 100000n -> "0.10", 2500000n -> "2.50": trailing zeros trimmed to two decimals. */
export function formatMicros(micros: bigint): string {
  const absolute = micros < 0n ? -micros : micros;
  const fraction = (absolute % MICRO).toString().padStart(6, '0').replace(/0+$/, '').padEnd(2, '0');
  return `${micros < 0n ? '-' : ''}${absolute / MICRO}.${fraction}`;
}

export const formatOptionalMicros = (micros: bigint | null | undefined): string | null =>
  micros === null || micros === undefined ? null : formatMicros(BigInt(micros));

/** Integer division rounding up (charges never round in the payer's favour below a micro-dollar). */
export const divideUp = (numerator: bigint, denominator: bigint) => (numerator + denominator - 1n) / denominator;
