import {
  getNamedType,
  getNullableType,
  isInputObjectType,
  isListType,
  Kind,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLInputField,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  type SelectionSetNode,
  type DocumentNode,
  visit,
} from 'graphql';

const snakeNames = new Map<string, string>();

/** Field names are few and repeat on every row: converted once each. */
export function snakeCase(name: string): string {
  let snake = snakeNames.get(name);
  if (snake === undefined) {
    snake = name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
    if (snakeNames.size < 10_000) snakeNames.set(name, snake);
  }
  return snake;
}

/** An input object's fields by their GraphQL and their snake_case names, built once per type. */
const fieldsByName = new WeakMap<GraphQLInputObjectType, Map<string, GraphQLInputField>>();

function inputFieldsOf(type: GraphQLInputObjectType): Map<string, GraphQLInputField> {
  let byName = fieldsByName.get(type);
  if (!byName) {
    byName = new Map();
    for (const field of Object.values(type.getFields())) byName.set(snakeCase(field.name), field).set(field.name, field);
    fieldsByName.set(type, byName);
  }
  return byName;
}

/**
 * REST bodies are snake_case, GraphQL inputs camelCase. The conversion follows the input type, so the
 * keys inside a JSON scalar (e.g. upstream headers) are left exactly as the caller wrote them.
 * Keys the input type does not know are dropped: a REST client may send a record's other fields
 * (an id, a counter) and they are ignored, as the documented interface does. GraphQL stays strict.
 */
export function inputToGraphQL(value: unknown, type: GraphQLInputType): unknown {
  if (value === null || value === undefined) return value;
  const nullable = getNullableType(type) as GraphQLInputType;
  if (isListType(nullable)) {
    return Array.isArray(value) ? value.map((item) => inputToGraphQL(item, nullable.ofType)) : inputToGraphQL(value, nullable.ofType);
  }
  const named = getNamedType(nullable);
  if (!isInputObjectType(named) || typeof value !== 'object' || Array.isArray(value)) return value;
  const fields = inputFieldsOf(named);
  const converted: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const field = fields.get(key);
    if (field) converted[field.name] = inputToGraphQL(item, field.type);
  }
  return converted;
}

/**
 * GraphQL results are camelCase; REST `data` is snake_case. Keys are renamed by walking the
 * operation's selection set, so leaf values (JSON scalars included) are never touched.
 */
export function outputToRest(
  value: unknown,
  selectionSet: SelectionSetNode | undefined,
  fragments: Map<string, FragmentDefinitionNode>,
): unknown {
  if (value === null || value === undefined || !selectionSet) return value;
  if (Array.isArray(value)) return value.map((item) => outputToRest(item, selectionSet, fragments));
  if (typeof value !== 'object') return value;
  const source = value as Record<string, unknown>;
  const converted: Record<string, unknown> = {};
  forEachSelectedField(selectionSet, fragments, (selection) => {
    const key = selection.alias?.value ?? selection.name.value;
    if (key === '__typename' || !(key in source)) return;
    converted[snakeCase(key)] = outputToRest(source[key], selection.selectionSet, fragments);
  });
  return converted;
}

/**
 * The same operation with every field aliased to its snake_case key: its result is already the
 * REST shape, so an answer is not walked and copied once more to rename its keys (what
 * `outputToRest` does, with the same names in the same order).
 */
export function withSnakeCaseAliases(document: DocumentNode): DocumentNode {
  return visit(document, {
    [Kind.FIELD](field) {
      // Not in a REST answer (outputToRest drops it too).
      if (field.name.value === '__typename') return null;
      const key = snakeCase(field.alias?.value ?? field.name.value);
      if (key === (field.alias?.value ?? field.name.value)) return undefined;
      return { ...field, alias: { kind: Kind.NAME, value: key } };
    },
  });
}

/** Every field a selection set selects, through its inline fragments and the named ones it spreads. */
export function forEachSelectedField(
  selectionSet: SelectionSetNode,
  fragments: Map<string, FragmentDefinitionNode>,
  onField: (field: FieldNode) => void,
): void {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) onField(selection);
    else if (selection.kind === Kind.INLINE_FRAGMENT) forEachSelectedField(selection.selectionSet, fragments, onField);
    else {
      const fragment = fragments.get(selection.name.value);
      if (fragment) forEachSelectedField(fragment.selectionSet, fragments, onField);
    }
  }
}
