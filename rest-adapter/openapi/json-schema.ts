import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isUnionType,
  type FragmentDefinitionNode,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type SelectionSetNode,
} from 'graphql';
import { forEachSelectedField, snakeCase } from '../case.js';

export type JsonSchema = Record<string, any>;

/** Scalars as they travel in JSON (money and big integers are decimal strings, never floats). */
const SCALARS: Record<string, JsonSchema> = {
  String: { type: 'string' },
  ID: { type: 'string' },
  Int: { type: 'integer', format: 'int32' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  SafeInt: { type: 'integer' },
  Decimal: { type: 'string', pattern: '^-?\\d+(\\.\\d+)?$', description: 'A decimal amount as a string, e.g. "0.001"' },
  DateTimeISO: { type: 'string', format: 'date-time' },
  JSONObject: { type: 'object' },
  JSON: {},
};

function namedSchema(type: GraphQLNamedType): JsonSchema {
  if (isEnumType(type)) return { type: 'string', enum: type.getValues().map((value) => value.value) };
  return { ...(SCALARS[type.name] ?? { type: 'string' }), ...(type.description && !SCALARS[type.name] ? { description: type.description } : {}) };
}

/** `schema` or null: a JSON type list gains 'null', anything else is wrapped in anyOf. */
function orNull(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string') {
    const nullable: JsonSchema = { ...schema, type: [schema.type, 'null'] };
    if (schema.enum) nullable.enum = [...schema.enum, null];
    return nullable;
  }
  if (Object.keys(schema).length === 0) return schema;
  return { anyOf: [schema, { type: 'null' }] };
}

/**
 * Input types become named components (they may refer to themselves), with the snake_case field
 * names REST callers send; `components` collects each one once.
 */
export function inputSchema(type: GraphQLInputType, components: Record<string, JsonSchema>): JsonSchema {
  if (isNonNullType(type)) return requiredInput(type.ofType as GraphQLInputType, components);
  return orNull(requiredInput(type, components));
}

function requiredInput(type: GraphQLInputType, components: Record<string, JsonSchema>): JsonSchema {
  if (isListType(type)) return { type: 'array', items: inputSchema(type.ofType as GraphQLInputType, components) };
  const named = getNamedType(type);
  if (!isInputObjectType(named)) return namedSchema(named);
  if (!components[named.name]) {
    components[named.name] = { type: 'object' };
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const field of Object.values(named.getFields())) {
      const name = snakeCase(field.name);
      properties[name] = { ...inputSchema(field.type, components), ...(field.description ? { description: field.description } : {}) };
      if (isNonNullType(field.type) && field.defaultValue === undefined) required.push(name);
    }
    components[named.name] = {
      type: 'object',
      ...(named.description ? { description: named.description } : {}),
      properties,
      ...(required.length ? { required } : {}),
    };
  }
  return { $ref: `#/components/schemas/${named.name}` };
}

/** Whether a body of this input type must be sent (some field is required). */
export function inputHasRequiredField(type: GraphQLInputType): boolean {
  const named = getNamedType(type);
  return isInputObjectType(named) && Object.values(named.getFields()).some((field) => isNonNullType(field.type) && field.defaultValue === undefined);
}

/** What a selection of `type` answers, keys in snake_case as the REST adapter renames them. */
export function selectionSchema(
  type: GraphQLOutputType,
  selectionSet: SelectionSetNode | undefined,
  fragments: Map<string, FragmentDefinitionNode>,
): JsonSchema {
  if (isNonNullType(type)) return requiredSelection(type.ofType, selectionSet, fragments);
  return orNull(requiredSelection(type, selectionSet, fragments));
}

function requiredSelection(
  type: GraphQLOutputType,
  selectionSet: SelectionSetNode | undefined,
  fragments: Map<string, FragmentDefinitionNode>,
): JsonSchema {
  if (isListType(type)) return { type: 'array', items: selectionSchema(type.ofType, selectionSet, fragments) };
  const named = getNamedType(type);
  if (!selectionSet || !(isObjectType(named) || isInterfaceType(named) || isUnionType(named))) return namedSchema(named);
  const properties: Record<string, JsonSchema> = {};
  const required = new Set<string>();
  // A union's members are reached through inline fragments, which this walk merges as they are.
  const fields = isUnionType(named) ? {} : named.getFields();
  forEachSelectedField(selectionSet, fragments, (selection) => {
    const name = selection.name.value;
    const field = (fields as Record<string, { type: GraphQLOutputType; description?: string | null }>)[name];
    if (name === '__typename' || !field) return;
    const key = snakeCase(selection.alias?.value ?? name);
    properties[key] = { ...selectionSchema(field.type, selection.selectionSet, fragments), ...(field.description ? { description: field.description } : {}) };
    if (isNonNullType(field.type)) required.add(key);
  });
  return { type: 'object', properties, ...(required.size ? { required: [...required] } : {}) };
}
