import { describe, expect, it } from '@jest/globals';
import { buildSchema, GraphQLError, parse, type OperationDefinitionNode } from 'graphql';
import { AppError } from '../../shared/errors.js';
import { formatPlatformError } from '../../shared/graphql-errors.js';
import { createLogger } from '../../shared/logger.js';
import { inputToGraphQL, outputToRest, snakeCase } from '../../rest-adapter/case.js';

const log = createLogger('silent');

describe('GraphQL error formatting', () => {
  it('keeps an AppError’s code and status', () => {
    const error = new GraphQLError('nope', { originalError: new AppError(409, 'email_taken', 'taken'), path: ['signup'] });
    expect(formatPlatformError(error, log).extensions).toEqual({ code: 'email_taken', status: 409 });
  });

  it('masks anything unexpected: no message, no SQL, the request id to quote', () => {
    const error = new GraphQLError('duplicate key value violates unique constraint "x"', {
      originalError: new Error('select * from secrets'),
      path: ['me'],
    });
    const formatted = formatPlatformError(error, log, 'req-1');
    expect(formatted.message).toBe('Internal server error');
    expect(formatted.extensions).toEqual({ code: 'internal_error', status: 500, requestId: 'req-1' });
  });

  it('turns GraphQL’s own request errors into 400s with snake_case codes', () => {
    const validation = new GraphQLError('Cannot query field "x"', { extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
    expect(formatPlatformError(validation, log).extensions).toEqual({ code: 'graphql_validation_failed', status: 400 });
  });
});

describe('REST ⇄ GraphQL key conversion', () => {
  const schema = buildSchema(`
    scalar JSON
    input Inner { upstreamHeaders: JSON, maxQueriesPerMinute: Int }
    input Outer { displayName: String, inner: Inner, items: [Inner!] }
    type Query { ok(input: Outer): Boolean }
  `);
  const outerType = schema.getQueryType()!.getFields().ok!.args[0]!.type;

  it('renames snake_case input keys by the input type, drops keys the type does not know and leaves JSON scalars untouched', () => {
    const converted = inputToGraphQL(
      { display_name: 'x', inner: { upstream_headers: { 'X-Api_Key': 'a', some_key: 1 }, max_queries_per_minute: 5 }, items: [{ max_queries_per_minute: 1 }], unknown_key: 1 },
      outerType,
    );
    expect(converted).toEqual({
      displayName: 'x',
      inner: { upstreamHeaders: { 'X-Api_Key': 'a', some_key: 1 }, maxQueriesPerMinute: 5 },
      items: [{ maxQueriesPerMinute: 1 }],
    });
  });

  it('renames output keys by the selection, including fragments, and not inside leaves', () => {
    const document = parse('query { me { userId ...F } } fragment F on User { passthroughHeaderRewrite createdAt }');
    const operation = document.definitions[0] as OperationDefinitionNode;
    const fragments = new Map([['F', document.definitions[1] as any]]);
    const me = (operation.selectionSet.selections[0] as any).selectionSet;
    const value = { userId: '1', passthroughHeaderRewrite: { 'X-From': 'X-To', camelKey: 1 }, createdAt: 'now' };
    expect(outputToRest(value, me, fragments)).toEqual({
      user_id: '1',
      passthrough_header_rewrite: { 'X-From': 'X-To', camelKey: 1 },
      created_at: 'now',
    });
    expect(snakeCase('totalRevenueAtomic')).toBe('total_revenue_atomic');
  });
});
