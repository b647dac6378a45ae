import {
  getNamedType,
  getNullableType,
  isInputObjectType,
  isListType,
  Kind,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLInputType,
  type SelectionSetNode,
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

/**
 * REST bodies are snake_case, GraphQL inputs camelCase. The conversion follows the input type, so the
 * keys inside a JSON scalar (e.g. upstream headers) are left exactly as the caller wrote them.
 * Unknown keys stay as they are, and GraphQL then refuses them with a clear message.
 */
export function inputToGraphQL(value: unknown, type: GraphQLInputType): unknown {
  if (value === null || value === undefined) return value;
  const nullable = getNullableType(type) as GraphQLInputType;
  if (isListType(nullable)) {
    return Array.isArray(value) ? value.map((item) => inputToGraphQL(item, nullable.ofType)) : inputToGraphQL(value, nullable.ofType);
  }
  const named = getNamedType(nullable);
  if (!isInputObjectType(named) || typeof value !== 'object' || Array.isArray(value)) return value;
  const fields = named.getFields();
  const bySnakeName = new Map(Object.values(fields).map((field) => [snakeCase(field.name), field]));
  const converted: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const field = fields[key] ?? bySnakeName.get(key);
    converted[field ? field.name : key] = field ? inputToGraphQL(item, field.type) : item;
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
