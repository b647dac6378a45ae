import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../../shared/context.js';
import { DatabaseBranch } from '../entities/branch.js';
import { ManagedDatabase } from '../entities/database.js';
import { ComputeEndpoint } from '../entities/endpoint.js';
import { DatabaseProject } from '../entities/project.js';
import { branchSize, databasesByBranch, endpointsByBranch } from '../loaders.js';
import { findOwnedBranch, findOwnedProject } from '../services/access.js';
import { createBranch } from '../services/create-branch.js';
import { deleteBranch } from '../services/delete-branch.js';
import { createDatabase, dropDatabase, listBranchDatabases } from '../services/manage-databases.js';
import { CreateBranchInput, CreateDatabaseInput } from '../types/inputs.js';

@Resolver(() => DatabaseBranch)
export class BranchResolver {
  @Query(() => [DatabaseBranch])
  async branches(@Arg('projectId', () => ID) projectId: string, @Ctx() context: RequestContext) {
    const project = await findOwnedProject(context, projectId);
    return context.em.find(DatabaseBranch, { projectId: project.id }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  }

  @Query(() => DatabaseBranch)
  async branch(@Arg('projectId', () => ID) projectId: string, @Arg('branchId', () => ID) branchId: string, @Ctx() context: RequestContext) {
    return (await findOwnedBranch(context, projectId, branchId)).branch;
  }

  @Query(() => [ManagedDatabase])
  branchDatabases(@Arg('projectId', () => ID) projectId: string, @Arg('branchId', () => ID) branchId: string, @Ctx() context: RequestContext) {
    return listBranchDatabases(context, projectId, branchId);
  }

  @Mutation(() => DatabaseBranch, { description: "A copy of the parent's data at this moment; parentPauseMs says how long the parent paused" })
  createBranch(@Arg('input', () => CreateBranchInput) input: CreateBranchInput, @Ctx() context: RequestContext) {
    return createBranch(context, input);
  }

  @Mutation(() => Boolean)
  deleteBranch(@Arg('projectId', () => ID) projectId: string, @Arg('branchId', () => ID) branchId: string, @Ctx() context: RequestContext) {
    return deleteBranch(context, projectId, branchId);
  }

  @Mutation(() => ManagedDatabase)
  createDatabase(@Arg('input', () => CreateDatabaseInput) input: CreateDatabaseInput, @Ctx() context: RequestContext) {
    return createDatabase(context, input);
  }

  @Mutation(() => Boolean)
  dropDatabase(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('branchId', () => ID) branchId: string,
    @Arg('name', () => String) name: string,
    @Ctx() context: RequestContext,
  ) {
    return dropDatabase(context, projectId, branchId, name);
  }

  @FieldResolver(() => [ManagedDatabase])
  databases(@Root() branch: DatabaseBranch, @Ctx() context: RequestContext) {
    return databasesByBranch(context).load(branch.id);
  }

  @FieldResolver(() => [ComputeEndpoint])
  endpoints(@Root() branch: DatabaseBranch, @Ctx() context: RequestContext) {
    return endpointsByBranch(context).load(branch.id);
  }

  @FieldResolver(() => String, { description: 'Bytes of its databases (a decimal string)' })
  async sizeBytes(@Root() branch: DatabaseBranch, @Ctx() context: RequestContext) {
    return String(await branchSize(context, branch.id));
  }

  @FieldResolver(() => Boolean)
  async isDefault(@Root() branch: DatabaseBranch, @Ctx() context: RequestContext) {
    const project = await context.em.findOne(DatabaseProject, { id: branch.projectId });
    return project?.defaultBranchId === branch.id;
  }
}
