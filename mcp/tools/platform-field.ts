import { PlatformError } from '../platform/platform-client.js';
import { listResult } from '../results.js';
import type { ToolContext } from '../tool.js';

/**
 * Calls one root field of the platform's schema with these arguments (undefined ones left out),
 * selecting every field of its record. The argument types are the schema's own; a field or
 * argument the platform does not have yet is a tool error naming it, never a made-up answer.
 */
export async function callField<T = any>(
  context: ToolContext,
  kind: 'query' | 'mutation',
  name: string,
  args: Record<string, unknown> = {},
  depth?: number,
): Promise<T> {
  const field = await context.catalog.rootField(kind, name);
  const given = Object.entries(args).filter(([, value]) => value !== undefined);
  const definitions = given.map(([argName]) => {
    const arg = field.args.find((candidate) => candidate.name === argName);
    if (!arg) throw new PlatformError('not_available', `This platform's ${kind} field ${name} takes no argument ${argName} yet; nothing was done`);
    return `$${argName}: ${String(arg.type)}`;
  });
  const selection = await context.catalog.selectionOf(kind, name, depth);
  const call = given.map(([argName]) => `${argName}: $${argName}`).join(', ');
  const document = `${kind}${definitions.length ? `(${definitions.join(', ')})` : ''} { ${name}${call ? `(${call})` : ''} ${selection} }`;
  return context.platform.run<T>(document, Object.fromEntries(given));
}

/** A list's items with their own fields only (describe_* shows one in full): a list stays small in an agent's context. */
export const listField = <T = Record<string, unknown>[]>(context: ToolContext, name: string, args: Record<string, unknown>) =>
  callField<T>(context, 'query', name, args, 1);

/** A list tool's answer: the platform's list `name` under `key`, capped at MCP_MAX_ROWS (`hint` says how to read the rest). */
export const listAnswer = async (context: ToolContext, key: string, name: string, args: Record<string, unknown>, hint: string) =>
  listResult(key, await listField(context, name, args), context.settings.maxRows, hint);

/** `{ projectId, branchId }` from a tool's snake_case arguments. */
export const branchArgs = (args: { project_id: string; branch_id: string }) => ({ projectId: args.project_id, branchId: args.branch_id });
