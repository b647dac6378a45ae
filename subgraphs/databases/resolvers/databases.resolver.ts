import { Ctx, Field, ObjectType, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../../shared/context.js';
import { DatabaseBranch } from '../entities/branch.js';
import { ManagedDatabase } from '../entities/database.js';
import { DatabaseProject } from '../entities/project.js';
import { listDatabases } from '../services/list-databases.js';

@ObjectType('DatabaseWithContext')
class DatabaseWithContextType {
  @Field(() => ManagedDatabase) database!: ManagedDatabase;
  @Field(() => DatabaseProject) project!: DatabaseProject;
  @Field(() => DatabaseBranch) branch!: DatabaseBranch;
}

@Resolver()
export class DatabasesResolver {
  @Query(() => [DatabaseWithContextType], { description: 'Databases of the caller’s organization with project and branch' })
  databases(@Ctx() context: RequestContext) {
    return listDatabases(context);
  }
}
