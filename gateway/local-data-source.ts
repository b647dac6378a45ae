import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { GatewayGraphQLResponse } from '@apollo/server-gateway-interface';
import { execute, parse, validate, type DocumentNode, type ExecutionResult, type GraphQLError, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { formatPlatformError } from '../shared/graphql-errors.js';
import type { RequestContext } from '../shared/context.js';
import type { Logger } from '../shared/logger.js';

const MAX_CACHED_DOCUMENTS = 2000;

/**
 * Runs a subgraph in-process. Unlike Apollo's LocalGraphQLDataSource it parses and validates each
 * distinct query plan fetch once, and it masks errors exactly as a standalone subgraph server does.
 */
export class InProcessSubgraph implements GraphQLDataSource<RequestContext> {
  private readonly documents = new Map<string, DocumentNode | readonly GraphQLError[]>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly log: Logger,
  ) {}

  async process({ request, context }: GraphQLDataSourceProcessOptions<RequestContext>): Promise<GatewayGraphQLResponse> {
    const document = this.document(request.query ?? '');
    const requestId = context?.requestId;
    if (!('kind' in document)) {
      return { errors: document.map((error) => formatPlatformError(error, this.log, requestId).toJSON()) };
    }
    const result = await this.executeClientDocument(document, request.variables, request.operationName, context as RequestContext | undefined);
    const errors = result.errors?.map((error) => error.toJSON());
    return errors ? { data: result.data as Record<string, unknown> | null, errors } : { data: result.data as Record<string, unknown> };
  }

  /**
   * Runs a document already validated (by the gateway against the API schema, or here) on this
   * subgraph's schema, errors masked as the subgraph's own server masks them.
   */
  async executeClientDocument(
    document: DocumentNode,
    variableValues: Record<string, unknown> | undefined,
    operationName: string | null | undefined,
    context: RequestContext | undefined,
  ): Promise<ExecutionResult> {
    const result = await execute({ schema: this.schema, document, variableValues, operationName, contextValue: context });
    if (!result.errors) return result;
    return { data: result.data, errors: result.errors.map((error) => formatPlatformError(error, this.log, context?.requestId)) };
  }

  /**
   * A function running one document fixed in the platform's code (a REST row's) compiled to
   * JavaScript once: for a page of records it is several times cheaper than interpreting the
   * document on every request. Only the platform's own documents are compiled, never a caller's.
   */
  compiledRunner(document: DocumentNode): (variables: Record<string, unknown>, context: RequestContext) => Promise<ExecutionResult> {
    const compiled = compileQuery(this.schema, document, undefined, { disablingCapturingStackErrors: true });
    if (!isCompiledQuery(compiled)) return (variables, context) => this.executeClientDocument(document, variables, undefined, context);
    return async (variables, context) => {
      const result = await compiled.query(undefined, context, variables);
      if (!result.errors) return result;
      return { data: result.data, errors: result.errors.map((error) => formatPlatformError(error, this.log, context.requestId)) };
    };
  }

  private document(query: string): DocumentNode | readonly GraphQLError[] {
    let cached = this.documents.get(query);
    if (cached) return cached;
    const document = parse(query);
    const errors = validate(this.schema, document);
    cached = errors.length > 0 ? errors : document;
    if (this.documents.size >= MAX_CACHED_DOCUMENTS) this.documents.clear();
    this.documents.set(query, cached);
    return cached;
  }
}
