import { z } from 'zod';

/** Arguments and results several tools share, described once. */
export const projectId = z.string().min(1).describe('The project id (list_projects shows them)');
export const branchId = z.string().min(1).describe('The branch id (list_branches shows them)');
export const databaseName = z.string().min(1).describe('The database name on the branch (list_databases shows them)');
export const schemaName = z.string().min(1).optional().describe('The schema (default public)');
export const limit = z.number().int().min(1).max(100).optional().describe('How many to return (at most 100, and at most MCP_MAX_ROWS)');
export const offset = z.number().int().min(0).optional().describe('How many to skip, for paging (default 0)');

/** A platform record as it comes (snake_case keys; the platform may add fields). */
export const record = z.looseObject({});
export const listOf = (key: string) =>
  z.object({
    [key]: z.array(record),
    truncated: z.boolean().describe('True when items were left off'),
    hint: z.string().optional().describe('How to get what was left off'),
    next_offset: z.number().int().optional().describe('The offset of the next page'),
  });
