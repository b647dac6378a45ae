import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../../shared/context.js';
import { dataPlaneOf } from '../data-plane/open-data-plane.js';
import { ComputeEndpoint } from '../entities/endpoint.js';
import { DatabaseProject } from '../entities/project.js';
import { databasesByBranch, endpointsByBranch } from '../loaders.js';
import { findOwnedBranch } from '../services/access.js';
import { createEndpoint, endpointState, startEndpoint, suspendEndpoint } from '../services/endpoints.js';
import { CreateEndpointInput } from '../types/inputs.js';

@Resolver(() => ComputeEndpoint)
export class EndpointResolver {
  @Query(() => [ComputeEndpoint])
  async endpoints(@Arg('projectId', () => ID) projectId: string, @Arg('branchId', () => ID) branchId: string, @Ctx() context: RequestContext) {
    const { branch } = await findOwnedBranch(context, projectId, branchId);
    return endpointsByBranch(context).load(branch.id);
  }

  @Mutation(() => ComputeEndpoint, { description: 'The branch’s read-write endpoint (one per branch; 409 endpoint_exists)' })
  createEndpoint(@Arg('input', () => CreateEndpointInput) input: CreateEndpointInput, @Ctx() context: RequestContext) {
    return createEndpoint(context, input);
  }

  @Mutation(() => ComputeEndpoint)
  startEndpoint(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('branchId', () => ID) branchId: string,
    @Arg('endpointId', () => ID) endpointId: string,
    @Ctx() context: RequestContext,
  ) {
    return startEndpoint(context, projectId, branchId, endpointId);
  }

  @Mutation(() => ComputeEndpoint, { description: 'Refuses new connections to the branch’s databases and ends open ones' })
  suspendEndpoint(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('branchId', () => ID) branchId: string,
    @Arg('endpointId', () => ID) endpointId: string,
    @Ctx() context: RequestContext,
  ) {
    return suspendEndpoint(context, projectId, branchId, endpointId);
  }

  @FieldResolver(() => String, { description: 'active, idle or suspended' })
  state(@Root() endpoint: ComputeEndpoint) {
    return endpointState(endpoint);
  }

  @FieldResolver(() => String)
  async host(@Ctx() context: RequestContext) {
    return (await dataPlaneOf(context.services)).host;
  }

  @FieldResolver(() => Int)
  async port(@Ctx() context: RequestContext) {
    return (await dataPlaneOf(context.services)).port;
  }

  @FieldResolver(() => String, { nullable: true, description: 'The data-plane name of the branch’s first database (what a client connects to)' })
  async database(@Root() endpoint: ComputeEndpoint, @Ctx() context: RequestContext) {
    return (await databasesByBranch(context).load(endpoint.branchId))[0]?.physicalName ?? null;
  }

  @FieldResolver(() => String)
  async role(@Root() endpoint: ComputeEndpoint, @Ctx() context: RequestContext) {
    return (await context.em.findOneOrFail(DatabaseProject, { id: endpoint.projectId })).roleName;
  }
}
