import { readJsonPath } from './json-path.js';

/**
 * Reads the upstream's own cost from its JSON answer at `upstream_cost_response_path`
 * ("usage.cost", "data[0].billing.total_usd") as micro-dollars, rounded up to the next
 * micro-dollar; null when the path is missing or not a non-negative number.
 */
export function readUpstreamCost(document: unknown, path: string): bigint | null {
  const value = readJsonPath(document, path);
  if (typeof value === 'number' && Number.isFinite(value)) return decimalToMicrosCeil(String(value));
  if (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value.trim())) return decimalToMicrosCeil(value.trim());
  return null;
}

/** Exact decimal (plain or exponent notation, as JS prints numbers) to micro-dollars, rounding up. */
export function decimalToMicrosCeil(text: string): bigint | null {
  const match = /^(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i.exec(text);
  if (!match) return null;
  const digits = `${match[1]}${match[2] ?? ''}`;
  const scale = (match[2]?.length ?? 0) - Number(match[3] ?? 0) - 6;
  if (scale <= 0) return BigInt(digits) * 10n ** BigInt(-scale);
  const divisor = 10n ** BigInt(scale);
  const value = BigInt(digits);
  return value / divisor + (value % divisor === 0n ? 0n : 1n);
}
