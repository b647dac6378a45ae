import { badRequest } from '../errors.js';

/** Deeper JSON is refused: nothing here nests so far, and deep values overflow the stack of whatever recurses over them. */
export const MAX_JSON_DEPTH = 64;

/** How deep a parsed JSON value nests (walked without recursion), counting up to just past MAX_JSON_DEPTH. */
export function jsonDepthOf(value: unknown): number {
  let deepest = 0;
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (item === null || typeof item !== 'object') continue;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_JSON_DEPTH) return deepest;
    for (const nested of Object.values(item)) pending.push([nested, depth + 1]);
  }
  return deepest;
}

export const jsonTooDeep = () => badRequest('json_too_deep', `JSON may nest at most ${MAX_JSON_DEPTH} levels`);
