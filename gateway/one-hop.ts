import { operationFromDocument, Supergraph } from '@apollo/federation-internals';
import { QueryPlanner, type FetchNode } from '@apollo/query-planner';
import type { GatewayExecutor, GatewayGraphQLRequestContext } from '@apollo/server-gateway-interface';
import { Kind, visit, type DocumentNode, type GraphQLError, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import type { RequestContext } from '../shared/context.js';
import { formatPlatformError } from '../shared/graphql-errors.js';
import type { DirectRun } from '../rest-adapter/router.js';
import type { InProcessSubgraph } from './local-data-source.js';
import { guardOperation } from './request-guards.js';

const MAX_REMEMBERED_PLANS = 2000;

/**
 * An operation whose query plan is one fetch from one in-process subgraph runs on that
 * subgraph's schema directly: the same resolvers, without the gateway's fetch, its second
 * document and its result shaping. The supergraph stays the contract: the plan decides, and
 * anything else (several subgraphs, entity requirements, rewrites, introspection, a subgraph
 * reached over HTTP) goes through the gateway as before.
 */
export class OneHopRouter {
  private readonly supergraph: Supergraph;
  private readonly planner: QueryPlanner;
  private readonly targets = new Map<string, InProcessSubgraph | null>();

  constructor(
    supergraphSdl: string,
    private readonly inProcess: Map<string, InProcessSubgraph>,
  ) {
    this.supergraph = Supergraph.build(supergraphSdl);
    this.planner = new QueryPlanner(this.supergraph);
  }

  /** The subgraph that alone answers this operation, or null (decided once per document and name). */
  targetOf(document: DocumentNode, operationName: string | undefined, queryHash: string): InProcessSubgraph | null {
    const key = operationName ? `${queryHash}:${operationName}` : queryHash;
    if (this.targets.has(key)) return this.targets.get(key)!;
    const target = this.plannedTarget(document, operationName);
    if (this.targets.size >= MAX_REMEMBERED_PLANS) this.targets.clear();
    this.targets.set(key, target);
    return target;
  }

  /**
   * For an operation fixed at start (a REST row): when one in-process subgraph alone answers it, a
   * function running it there without the GraphQL server's request pipeline, after the same
   * request guards; null otherwise (the row goes through the GraphQL server).
   */
  runnerFor(apiSchema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): DirectRun | null {
    const target = this.plannedTarget(document, undefined);
    if (!target) return null;
    // Compiled on the row's first call: compiling every row at start cost each process ~400 ms.
    let run: DirectRun | undefined;
    return async (variables, context) => {
      try {
        guardOperation(apiSchema, document, operation, undefined, variables);
      } catch (error) {
        return { errors: [formatPlatformError(error as GraphQLError, context.log, context.requestId)] };
      }
      run ??= target.compiledRunner(document);
      return run(variables, context);
    };
  }

  /** Wraps the gateway's executor: one-hop operations bypass it. */
  executor(gatewayExecutor: GatewayExecutor): GatewayExecutor {
    return async (request: GatewayGraphQLRequestContext) => {
      const target = this.targetOf(request.document, request.request.operationName ?? undefined, request.queryHash);
      if (!target) return gatewayExecutor(request);
      return target.executeClientDocument(request.document, request.request.variables, request.request.operationName, request.context as RequestContext);
    };
  }

  /** The subgraph that alone answers this operation, or null; planned on every call (callers remember it). */
  plannedTarget(document: DocumentNode, operationName: string | undefined): InProcessSubgraph | null {
    if (asksForIntrospection(document)) return null;
    let node;
    try {
      const operation = operationFromDocument(this.supergraph.apiSchema(), document, { operationName });
      node = this.planner.buildQueryPlan(operation).node;
    } catch {
      return null; // the gateway reports the problem in its own words
    }
    if (!node || node.kind !== 'Fetch' || !isPlainFetch(node)) return null;
    return this.inProcess.get(node.serviceName) ?? null;
  }
}

function isPlainFetch(node: FetchNode): boolean {
  return !node.requires?.length && !node.inputRewrites?.length && !node.outputRewrites?.length && !node.contextRewrites?.length && !node.hasDefers;
}

/** `__schema` and `__type` are answered by the gateway from the API schema, not by a subgraph. */
function asksForIntrospection(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    [Kind.FIELD](field) {
      if (field.name.value === '__schema' || field.name.value === '__type') found = true;
    },
  });
  return found;
}
