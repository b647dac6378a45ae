import {
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLInputType,
  type GraphQLNamedInputType,
  type GraphQLScalarType,
} from 'graphql';
import { snakeCase } from './case.js';

/**
 * What a REST caller must send for each scalar, in words (never a GraphQL type name), and the JSON
 * values that fit it. The gateway's own schema passes custom scalars through unchecked; their
 * subgraph would refuse a wrong JSON type later, so the JSON type is checked here first.
 */
const SCALARS: Record<string, { expected: string; accepts?: (value: unknown) => boolean }> = {
  String: { expected: 'a string' },
  ID: { expected: 'a string' },
  Int: { expected: 'an integer between -2147483648 and 2147483647' },
  Float: { expected: 'a number' },
  Boolean: { expected: 'true or false' },
  Decimal: { expected: 'a decimal string such as "0.01"', accepts: (value) => typeof value === 'string' || typeof value === 'number' },
  SafeInt: { expected: 'an integer', accepts: (value) => Number.isSafeInteger(value) },
  DateTimeISO: { expected: 'a date-time string such as "2026-01-31T12:00:00Z"', accepts: (value) => typeof value === 'string' },
  JSONObject: { expected: 'an object', accepts: (value) => typeof value === 'object' && value !== null && !Array.isArray(value) },
};

/** How a value of this type is described to a REST caller. */
export function expectedOf(type: GraphQLInputType): string {
  const nullable = getNullableType(type) as GraphQLInputType;
  if (isListType(nullable)) return 'a list';
  if (isInputObjectType(nullable)) return 'an object';
  if (isEnumType(nullable)) return `one of ${nullable.getValues().map((value) => value.name).join(', ')}`;
  return SCALARS[nullable.name]?.expected ?? 'a value of another type';
}

function scalarAccepts(type: GraphQLScalarType, value: unknown): boolean {
  const rule = SCALARS[type.name];
  if (rule?.accepts) return rule.accepts(value);
  try {
    return type.parseValue(value) !== undefined;
  } catch {
    return false;
  }
}

/** A field's REST name from its GraphQL path: `input.pricing[0].pricePerCall` -> `pricing[0].price_per_call`. */
export function restFieldName(path: readonly (string | number)[]): string {
  return path.reduce<string>((name, step) => (typeof step === 'number' ? `${name}[${step}]` : name ? `${name}.${snakeCase(step)}` : snakeCase(step)), '');
}

export interface InputProblem {
  /** The GraphQL path of the field, from the variable's fields (the variable itself when it is not an object). */
  path: (string | number)[];
  message: string;
}

/**
 * The first reason a (converted) REST value does not fit its GraphQL input type: a missing
 * required field, a null where one is needed, a wrong JSON type. Keys the type does not know were
 * dropped by the conversion before.
 */
export function inputProblemOf(value: unknown, type: GraphQLInputType, path: (string | number)[]): InputProblem | null {
  const problem = (message: string): InputProblem => ({ path, message: `${restFieldName(path) || 'the request body'} ${message}` });
  if (value === undefined || value === null) {
    if (!isNonNullType(type)) return null;
    return problem(value === undefined ? 'is required' : 'must not be null');
  }
  const nullable = getNullableType(type) as GraphQLNamedInputType | GraphQLInputType;
  if (isListType(nullable)) {
    // GraphQL takes a single value where a list is expected, as a list of one.
    if (!Array.isArray(value)) return inputProblemOf(value, nullable.ofType, path);
    for (const [index, item] of value.entries()) {
      const found = inputProblemOf(item, nullable.ofType, [...path, index]);
      if (found) return found;
    }
    return null;
  }
  if (isInputObjectType(nullable)) {
    if (typeof value !== 'object' || Array.isArray(value)) return problem('must be an object');
    const fields = value as Record<string, unknown>;
    for (const field of Object.values(nullable.getFields())) {
      if (fields[field.name] === undefined && field.defaultValue !== undefined) continue;
      const found = inputProblemOf(fields[field.name], field.type, [...path, field.name]);
      if (found) return found;
    }
    return null;
  }
  if (isEnumType(nullable)) return nullable.getValue(String(value)) && typeof value === 'string' ? null : problem(`must be ${expectedOf(nullable)}`);
  if (isScalarType(nullable) && !scalarAccepts(nullable, value)) return problem(`must be ${expectedOf(nullable)}`);
  return null;
}
