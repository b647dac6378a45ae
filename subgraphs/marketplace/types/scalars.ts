import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import { formatMicros } from '../services/decimal.js';

/**
 * Money, multipliers and percentages: held as bigint micro-units, shown as decimal strings ("0.10").
 * Inputs arrive as strings (or JSON numbers) and are validated by the services with clear codes.
 */
export const DecimalScalar = new GraphQLScalarType({
  name: 'Decimal',
  description: 'A non-negative decimal number as a string, e.g. "0.001"',
  serialize: (value) => (typeof value === 'bigint' ? formatMicros(value) : String(value)),
  parseValue: (value) => {
    if (typeof value === 'string' || typeof value === 'number') return String(value);
    throw new GraphQLError('Decimal values are strings such as "0.01"');
  },
  parseLiteral: (ast) => {
    if (ast.kind === Kind.STRING || ast.kind === Kind.FLOAT || ast.kind === Kind.INT) return ast.value;
    throw new GraphQLError('Decimal values are strings such as "0.01"');
  },
});
