import { z } from 'zod';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { PlatformError } from '../platform/platform-client.js';
import { page } from '../results.js';
import { defineTool, PAYS, READS } from '../tool.js';
import { limit, listOf, offset, record } from './fields.js';
import { estimateCall, makePaidCall } from './paid-call.js';
import { findPublisher, PUBLISHER_DETAIL, PUBLISHER_SUMMARY } from './publishers.js';

const publisherRef = z.string().min(1).describe('The publisher: its slug or its id (uuid)');
const confirm = z.boolean().optional().describe('true to pay a price above the confirmation threshold (the first answer states it)');
const paidResult = z.looseObject({
  status: z.enum(['completed', 'upstream_error', 'confirmation_required', 'declined']),
  price: z.string().describe('The most this call is charged, in USD'),
  currency: z.string(),
});

/** `/path?a=1&a=2` -> the path and its query as an object. */
function splitPath(path: string): { path: string; query?: Record<string, string | string[]> } {
  const [pathname, search] = path.split(/\?(.*)/s, 2) as [string, string?];
  if (!search) return { path: pathname || '/' };
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(search)) {
    const seen = query[name];
    query[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return { path: pathname || '/', query };
}

async function databasePublisher(context: Parameters<typeof findPublisher>[0], ref: string) {
  const publisher = await findPublisher(context, ref);
  if (publisher.publisher_category !== 'database') {
    throw new PlatformError('not_a_database_publisher', `${publisher.slug} is a ${publisher.publisher_category} publisher: call it with execute_paid_api`);
  }
  return publisher;
}

export const marketplaceTools = [
  defineTool({
    name: 'list_agent_publishers',
    title: 'Find publishers',
    description:
      'Searches the marketplace of paid publishers (databases, APIs, compute) by words, best match first: slug, what it offers, ' +
      'how it bills. Free; changes nothing. Page with limit and offset.',
    toolset: 'marketplace',
    annotations: READS,
    input: {
      search: z.string().max(200).optional().describe('Words to search for, e.g. "stock quotes"'),
      is_verified: z.boolean().optional().describe('Only verified publishers'),
      limit,
      offset,
    },
    output: listOf('publishers'),
    async run(args, context) {
      const { items, ...rest } = await page(
        (pageLimit, pageOffset) =>
          context.platform.run<Record<string, unknown>[]>(`query($input: PublisherListInput) { publishers(input: $input) ${PUBLISHER_SUMMARY} }`, {
            input: { search: args.search, isVerified: args.is_verified, limit: pageLimit, offset: pageOffset },
          }),
        args,
        context.settings.maxRows,
      );
      return { publishers: items, ...rest, ...(rest.truncated ? { hint: `Call again with offset ${rest.next_offset} for more` } : {}) };
    },
  }),
  defineTool({
    name: 'get_agent_publisher',
    title: 'Describe a publisher',
    description: "Shows one publisher: its endpoints with their prices, pricing, billing model and usage examples. Free; changes nothing.",
    toolset: 'marketplace',
    annotations: READS,
    input: { slug: publisherRef },
    output: record,
    run: (args, context) => findPublisher<Record<string, unknown>>(context, args.slug, PUBLISHER_DETAIL),
  }),
  defineTool({
    name: 'estimate_query_cost',
    title: 'Estimate the cost of a paid query',
    description:
      "Prices a query to a publisher without running it or spending anything: the estimate and the most it can be charged (max_cost, what is held). " +
      'For a database publisher the query is SQL; for an API publisher, "METHOD /path".',
    toolset: 'marketplace',
    annotations: READS,
    input: { publisher: publisherRef, query: z.string().min(1).describe('The SQL (database publishers) or "GET /path" (API publishers)') },
    output: z.looseObject({ estimated_cost: z.string(), max_cost: z.string(), currency: z.string() }),
    async run(args, context) {
      const publisher = await findPublisher(context, args.publisher);
      const api = publisher.publisher_category !== 'database' ? /^([A-Za-z]+)\s+(\/\S*)$/.exec(args.query.trim()) : null;
      const call = api ? { method: api[1]!.toUpperCase(), ...splitPath(api[2]!) } : { method: 'POST', path: '/', sql: args.query };
      const estimate = await estimateCall(context, publisher, call);
      return { publisher: publisher.slug, ...estimate };
    },
  }),
  defineTool({
    name: 'execute_paid_query',
    title: 'Run a paid query',
    description:
      'Runs a SQL query on a database publisher, paid from your prepaid wallet at its per-query price (estimate_query_cost ' +
      'tells it first). Above the confirmation threshold the first answer is the price and nothing is charged: call again ' +
      'with confirm: true. Never charged more than that price. Rows capped at MCP_MAX_ROWS.',
    toolset: 'marketplace',
    annotations: PAYS,
    input: {
      publisher: publisherRef,
      query: z.string().min(1).describe('The SQL query'),
      database: z.string().min(1).optional().describe("The publisher's database, when it has several"),
      confirm,
    },
    output: paidResult,
    async run(args, context) {
      const publisher = await databasePublisher(context, args.publisher);
      const body = { query: args.query, ...(args.database ? { database: args.database } : {}) };
      return makePaidCall(context, 'execute_paid_query', publisher, { method: 'POST', path: '/', body, sql: args.query }, args.confirm);
    },
  }),
  defineTool({
    name: 'execute_paid_api',
    title: 'Call a paid API',
    description:
      "Calls an endpoint of a publisher's API through the paid proxy (get_agent_publisher lists its endpoints and prices), paid " +
      'from your prepaid wallet. Above the confirmation threshold the first answer is the price and nothing is charged: call ' +
      'again with confirm: true. Never charged more than that price. A POST, PUT, PATCH or DELETE may change data at the publisher.',
    toolset: 'marketplace',
    annotations: { ...PAYS, destructiveHint: true },
    input: {
      publisher: publisherRef,
      method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).optional().describe('HTTP method (default GET)'),
      path: z.string().startsWith('/').max(2000).optional().describe('The endpoint path with its query, e.g. /v1/quotes/AAPL?fields=bid (default /)'),
      body: z.record(z.string(), z.unknown()).optional().describe('JSON body (not for GET)'),
      confirm,
    },
    output: paidResult,
    async run(args, context) {
      const method = args.method ?? 'GET';
      if (method === 'GET' && args.body) throw new McpError(ErrorCode.InvalidParams, 'Invalid arguments for execute_paid_api: body: a GET takes no body');
      const publisher = await findPublisher(context, args.publisher);
      return makePaidCall(context, 'execute_paid_api', publisher, { method, ...splitPath(args.path ?? '/'), body: args.body }, args.confirm);
    },
  }),
];
