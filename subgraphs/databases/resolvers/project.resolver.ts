import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../../shared/context.js';
import { requireIdentity } from '../../../shared/context.js';
import { dataPlaneOf } from '../data-plane/open-data-plane.js';
import { DatabaseBranch } from '../entities/branch.js';
import { ComputeEndpoint } from '../entities/endpoint.js';
import { DatabaseProject } from '../entities/project.js';
import { branchesByProject, branchSize, endpointsByBranch } from '../loaders.js';
import { findOwnedProject } from '../services/access.js';
import { createProject } from '../services/create-project.js';
import { deleteProject } from '../services/delete-project.js';
import { revealProjectPassword } from '../services/reveal-password.js';
import { CreateProjectInput } from '../types/inputs.js';
import { CreatedProject } from '../types/results.js';

@Resolver(() => DatabaseProject)
export class ProjectResolver {
  @Query(() => [DatabaseProject], { description: "The caller's organization's database projects" })
  projects(@Ctx() context: RequestContext) {
    const { organizationId } = requireIdentity(context);
    return context.em.find(DatabaseProject, { organizationId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  }

  @Query(() => DatabaseProject)
  project(@Arg('projectId', () => ID) projectId: string, @Ctx() context: RequestContext) {
    return findOwnedProject(context, projectId);
  }

  @Mutation(() => CreatedProject, { description: 'A project with its default branch `main`, database `app`, endpoint and role; the password is shown once' })
  createProject(@Arg('input', () => CreateProjectInput) input: CreateProjectInput, @Ctx() context: RequestContext) {
    return createProject(context, input);
  }

  @Mutation(() => Boolean)
  deleteProject(@Arg('projectId', () => ID) projectId: string, @Ctx() context: RequestContext) {
    return deleteProject(context, projectId);
  }

  @Mutation(() => String, { description: "The project role's password" })
  revealProjectPassword(@Arg('projectId', () => ID) projectId: string, @Ctx() context: RequestContext) {
    return revealProjectPassword(context, projectId);
  }

  @FieldResolver(() => [DatabaseBranch])
  branches(@Root() project: DatabaseProject, @Ctx() context: RequestContext) {
    return branchesByProject(context).load(project.id);
  }

  @FieldResolver(() => [ComputeEndpoint])
  async endpoints(@Root() project: DatabaseProject, @Ctx() context: RequestContext) {
    const branches = await branchesByProject(context).load(project.id);
    return (await Promise.all(branches.map((branch) => endpointsByBranch(context).load(branch.id)))).flat();
  }

  @FieldResolver(() => String, { description: 'Bytes of all its databases (a decimal string)' })
  async sizeBytes(@Root() project: DatabaseProject, @Ctx() context: RequestContext) {
    const branches = await branchesByProject(context).load(project.id);
    const sizes = await Promise.all(branches.map((branch) => branchSize(context, branch.id)));
    return String(sizes.reduce((sum, size) => sum + size, 0n));
  }

  @FieldResolver(() => String, { description: 'Host a PostgreSQL client connects to' })
  async connectionHost(@Ctx() context: RequestContext) {
    return (await dataPlaneOf(context.services)).host;
  }

  @FieldResolver(() => Int)
  async connectionPort(@Ctx() context: RequestContext) {
    return (await dataPlaneOf(context.services)).port;
  }
}
