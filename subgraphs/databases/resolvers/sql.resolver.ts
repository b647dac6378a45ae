import { GraphQLJSON } from 'graphql-scalars';
import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../../shared/context.js';
import { describeTable, listTables } from '../services/describe-tables.js';
import { explainSql, runSql, runSqlTransaction } from '../services/run-sql.js';
import { ExplainSqlInput, RunSqlInput, RunSqlTransactionInput } from '../types/inputs.js';
import { DatabaseTable, SqlResult, TableSchema } from '../types/results.js';

@Resolver()
export class SqlResolver {
  @Query(() => [DatabaseTable])
  databaseTables(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('branchId', () => ID) branchId: string,
    @Arg('database', () => String) database: string,
    @Arg('schema', () => String, { nullable: true }) schema: string | null,
    @Ctx() context: RequestContext,
  ) {
    return listTables(context, { projectId, branchId, database }, schema);
  }

  @Query(() => TableSchema)
  tableSchema(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('branchId', () => ID) branchId: string,
    @Arg('database', () => String) database: string,
    @Arg('tableName', () => String) tableName: string,
    @Arg('schema', () => String, { nullable: true }) schema: string | null,
    @Ctx() context: RequestContext,
  ) {
    return describeTable(context, { projectId, branchId, database }, tableName, schema);
  }

  @Mutation(() => SqlResult)
  runSql(@Arg('input', () => RunSqlInput) input: RunSqlInput, @Ctx() context: RequestContext) {
    return runSql(context, input);
  }

  @Mutation(() => [SqlResult], { description: 'All statements in one transaction: all or nothing' })
  runSqlTransaction(@Arg('input', () => RunSqlTransactionInput) input: RunSqlTransactionInput, @Ctx() context: RequestContext) {
    return runSqlTransaction(context, input);
  }

  @Mutation(() => GraphQLJSON, { description: 'EXPLAIN (FORMAT JSON) in a transaction that is always rolled back' })
  explainSql(@Arg('input', () => ExplainSqlInput) input: ExplainSqlInput, @Ctx() context: RequestContext) {
    return explainSql(context, input);
  }
}
