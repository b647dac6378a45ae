import type { NextFunction, Request, Response } from 'express';
import {
  getOperationAST,
  GraphQLError,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLFormattedError,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ValidationRule,
} from 'graphql';
import type { RequestContext } from '../shared/context.js';
import type { InProcessSubgraph } from './local-data-source.js';
import { guardOperation, onlyRefusedVariables } from './request-guards.js';

const MAX_PREPARED = 2000;
/** Longer documents are rare and go through the GraphQL server: the cache holds its keys' text. */
const MAX_PREPARED_QUERY_LENGTH = 8192;
const JSON_ANSWER = 'application/json; charset=utf-8';

interface Prepared {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  target: InProcessSubgraph;
}

export interface PreparedGraphQLParts {
  apiSchema: GraphQLSchema;
  /** The GraphQL server's own rules and limits, so a document is accepted here only if it would be there. */
  validationRules: readonly ValidationRule[];
  maxTokens: number;
  /** The subgraph that alone answers an operation, as the query plan says (gateway/one-hop.ts). */
  targetOf(document: DocumentNode, operationName: string | undefined): InProcessSubgraph | null;
  /** The GraphQL server's formatError. */
  formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError;
}

/**
 * POST /graphql for an operation that one in-process subgraph answers alone, without the GraphQL
 * server's request pipeline: each distinct document is parsed, validated (with the server's rules)
 * and planned once, then every request runs the same guards and resolvers and is answered in the
 * server's exact bytes and statuses. Anything else (another media type, persisted queries, a
 * document that does not parse or validate, an operation the gateway must plan across subgraphs)
 * goes on to the GraphQL server, which answers it as before.
 */
export class PreparedGraphQL {
  private readonly prepared = new Map<string, Prepared | null>();

  constructor(private readonly parts: PreparedGraphQLParts) {}

  readonly handle = (req: Request, res: Response, next: NextFunction): void => {
    const request = this.simpleRequest(req);
    const prepared = request && this.preparedFor(request.query, request.operationName);
    if (!request || !prepared) return next();
    this.run(prepared, request, res.locals.context as RequestContext).then(
      ({ status, body }) => void res.status(status).set('Content-Type', JSON_ANSWER).send(body),
      next,
    );
  };

  /** A JSON POST the GraphQL server would take as one plain operation; null for anything else. */
  private simpleRequest(req: Request): { query: string; operationName?: string; variables?: Record<string, unknown> } | null {
    if (req.method !== 'POST' || !isJsonType(req.headers['content-type']) || !answersJson(req.headers.accept)) return null;
    const body = req.body as Record<string, unknown> | undefined;
    if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
    const { query, operationName, variables, extensions } = body;
    if (typeof query !== 'string' || query.length === 0 || query.length > MAX_PREPARED_QUERY_LENGTH) return null;
    if (extensions != null) return null;
    if (operationName != null && typeof operationName !== 'string') return null;
    if (variables != null && (typeof variables !== 'object' || Array.isArray(variables))) return null;
    return { query, operationName: operationName ?? undefined, variables: (variables ?? undefined) as Record<string, unknown> | undefined };
  }

  private preparedFor(query: string, operationName: string | undefined): Prepared | null {
    const key = operationName === undefined ? query : `${operationName}\n${query}`;
    let prepared = this.prepared.get(key);
    if (prepared === undefined) {
      prepared = this.prepare(query, operationName);
      if (this.prepared.size >= MAX_PREPARED) this.prepared.clear();
      this.prepared.set(key, prepared);
    }
    return prepared;
  }

  private prepare(query: string, operationName: string | undefined): Prepared | null {
    let document: DocumentNode;
    try {
      document = parse(query, { maxTokens: this.parts.maxTokens });
    } catch {
      return null;
    }
    if (validate(this.parts.apiSchema, document, [...specifiedRules, ...this.parts.validationRules]).length > 0) return null;
    const operation = getOperationAST(document, operationName);
    if (!operation || operation.operation === 'subscription') return null;
    const target = this.parts.targetOf(document, operationName);
    return target && { document, operation, target };
  }

  private async run(
    { document, operation, target }: Prepared,
    { operationName, variables }: { operationName?: string; variables?: Record<string, unknown> },
    context: RequestContext,
  ): Promise<{ status: number; body: string }> {
    try {
      guardOperation(this.parts.apiSchema, document, operation, operationName, variables);
    } catch (error) {
      const { errors, status } = this.formatted([error as GraphQLError]);
      return { status: status ?? 500, body: `${JSON.stringify({ errors })}\n` };
    }
    const result: ExecutionResult = await target.executeClientDocument(document, variables, operationName, context);
    const { errors, status: errorStatus } = result.errors ? this.formatted(result.errors) : { errors: undefined, status: undefined };
    let status = errorStatus ?? (errors && result.data === undefined ? 400 : 200);
    if (onlyRefusedVariables(result.data, errors)) status = 400;
    return { status, body: `${JSON.stringify({ errors, data: result.data, extensions: result.extensions })}\n` };
  }

  /** Errors as the GraphQL server formats them: a default code, `extensions.http` lifted into the answer's status. */
  private formatted(errors: readonly GraphQLError[]): { errors: GraphQLFormattedError[]; status?: number } {
    let status: number | undefined;
    const formatted = errors.map((error) => {
      const extensions: Record<string, unknown> = { ...error.extensions, code: error.extensions?.code ?? 'INTERNAL_SERVER_ERROR' };
      const http = extensions.http as { status?: number } | undefined;
      if (http && typeof http === 'object') {
        if (typeof http.status === 'number') status = http.status;
        delete extensions.http;
      }
      return this.parts.formatError({ ...error.toJSON(), extensions }, error);
    });
    return { errors: formatted, status };
  }
}

/** `application/json`, with or without parameters: what the server's CSRF rule lets through untouched. */
function isJsonType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const essence = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return essence === 'application/json';
}

/** Whether the GraphQL server would answer `application/json` to this Accept header (it negotiates). */
function answersJson(accept: string | undefined): boolean {
  return !accept || acceptsOnlyPlainJson(accept);
}

/**
 * An Accept header naming only `application/json`, `application/*` or `*\/*` (with a weight above
 * zero): the server would answer plain JSON. Any other header (graphql-response+json among them)
 * is negotiated by the server itself.
 */
function acceptsOnlyPlainJson(accept: string): boolean {
  return accept.split(',').every((range) => {
    const [type, ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    if (type !== 'application/json' && type !== 'application/*' && type !== '*/*') return false;
    return parameters.every((parameter) => /^q=(1(\.0{0,3})?|0?\.\d{0,2}[1-9])$/.test(parameter));
  });
}
