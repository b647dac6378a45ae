/**
 * JSON that keeps what plain JSON loses on the way between processes: a bigint (money) stays a
 * bigint and a Date stays a Date. Used for event payloads in the outbox and for port calls.
 */
const BIGINT = '$bigint';
const DATE = '$date';

export function encodeJson(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key, encoded) {
    const original = this[key];
    if (original instanceof Date) return { [DATE]: original.toISOString() };
    if (typeof encoded === 'bigint') return { [BIGINT]: encoded.toString() };
    return encoded;
  });
}

export function decodeJson<T = unknown>(text: string): T {
  return JSON.parse(text, (_key, value) => {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const keys = Object.keys(value);
      if (keys.length === 1 && keys[0] === BIGINT && typeof value[BIGINT] === 'string') return BigInt(value[BIGINT]);
      if (keys.length === 1 && keys[0] === DATE && typeof value[DATE] === 'string') return new Date(value[DATE]);
    }
    return value;
  }) as T;
}
