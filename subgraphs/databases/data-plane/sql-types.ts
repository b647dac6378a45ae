import pg from 'pg';

/**
 * How PostgreSQL values become JSON, faithfully: bigint and numeric stay strings (no float
 * rounding), timestamps ISO 8601 (sessions run in UTC), bytea base64, json parsed, booleans and
 * small integers as JSON values; every other type as PostgreSQL writes it. Arrays of these map
 * element by element.
 */
type Parse = (text: string) => unknown;

const finiteOrText: Parse = (text) => {
  const value = Number(text);
  return Number.isFinite(value) ? value : text;
};

/** `2024-05-01 12:00:00.5+00` -> `2024-05-01T12:00:00.5Z`; infinity and BC dates as written. */
const isoTimestamp = (withZone: boolean): Parse => (text) => {
  if (!/^\d{4,}-\d\d-\d\d \d/.test(text) || text.endsWith(' BC')) return text;
  const iso = text.replace(' ', 'T');
  return withZone ? iso.replace(/\+00(:00)?$/, 'Z') : iso;
};

const base64OfBytea: Parse = (text) => (text.startsWith('\\x') ? Buffer.from(text.slice(2), 'hex').toString('base64') : text);

const scalars: Record<number, Parse> = {
  16: (text) => text === 't',
  17: base64OfBytea,
  21: Number,
  23: Number,
  26: Number,
  114: JSON.parse,
  700: finiteOrText,
  701: finiteOrText,
  1114: isoTimestamp(false),
  1184: isoTimestamp(true),
  3802: JSON.parse,
};

const asText: Parse = (text) => text;

/** Array type oid -> element type oid (text-like elements stay strings: text, varchar, bigint, numeric, uuid, date). */
const arrays: Record<number, number> = {
  1000: 16, 1001: 17, 1005: 21, 1007: 23, 1028: 26, 199: 114, 1021: 700, 1022: 701, 1115: 1114, 1185: 1184, 3807: 3802,
  1009: 25, 1015: 25, 1016: 25, 1231: 25, 2951: 25, 1182: 25, 1014: 25,
};
const arrayParser = (pg.types as unknown as { arrayParser: { create(source: string, transform: Parse): { parse(): unknown } } }).arrayParser;

export const sqlTypes = {
  getTypeParser(oid: number, format?: string): Parse {
    if (format === 'binary') return asText;
    const scalar = scalars[oid];
    if (scalar) return scalar;
    const element = arrays[oid];
    if (element !== undefined) return (text) => arrayParser.create(text, scalars[element] ?? asText).parse();
    return asText;
  },
} as unknown as pg.CustomTypesConfig;
