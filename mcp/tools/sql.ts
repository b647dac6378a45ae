import { z } from 'zod';
import { capped } from '../results.js';
import { defineTool, READS, RUNS_SQL, type ToolContext } from '../tool.js';
import { branchId, databaseName, listOf, projectId, record, schemaName } from './fields.js';
import { branchArgs, callField, listAnswer } from './platform-field.js';

interface SqlResult {
  rows: unknown[];
  fields: unknown[];
  row_count: number;
  duration_ms: number;
  truncated: boolean;
  command?: string | null;
}

const PAGE_HINT = 'Rows were left off (MCP_MAX_ROWS or the platform cap): add ORDER BY with LIMIT/OFFSET, or aggregate, to read the rest';

/** A statement's result with its rows capped at MCP_MAX_ROWS (row_count still counts them all). */
function cappedResult(result: SqlResult, maxRows: number) {
  const { items, truncated } = capped(result.rows, maxRows, PAGE_HINT);
  const cut = truncated || result.truncated;
  return { ...result, rows: items, truncated: cut, ...(cut ? { hint: PAGE_HINT } : {}) };
}

const sqlResult = z.looseObject({
  rows: z.array(z.unknown()),
  fields: z.array(z.unknown()),
  row_count: z.number(),
  truncated: z.boolean(),
  hint: z.string().optional(),
});

const sqlTarget = { project_id: projectId, branch_id: branchId, database: databaseName };
const targetOf = (args: { project_id: string; branch_id: string; database: string }) => ({ ...branchArgs(args), database: args.database });
/** MCP_READ_ONLY: statements run in a READ ONLY transaction, where the platform refuses a write (read_only_query). */
const readOnlyOf = (context: ToolContext) => (context.settings.readOnly ? { readOnly: true } : {});

export const sqlTools = [
  defineTool({
    name: 'run_sql',
    title: 'Run a SQL statement',
    description:
      'Runs one SQL statement on a database of a branch and answers its rows (at most MCP_MAX_ROWS; truncated: true says more ' +
      'exist), columns and row count. It can change or drop data: run it on a branch first. Under MCP_READ_ONLY it runs in a ' +
      'read-only transaction and a write is refused.',
    toolset: 'sql',
    annotations: RUNS_SQL,
    runsReadOnly: true,
    input: { ...sqlTarget, query: z.string().min(1).describe('One SQL statement') },
    output: sqlResult,
    async run(args, context) {
      const result = await callField<SqlResult>(context, 'mutation', 'runSql', { input: { ...targetOf(args), query: args.query, ...readOnlyOf(context) } });
      return cappedResult(result, context.settings.maxRows);
    },
  }),
  defineTool({
    name: 'run_sql_transaction',
    title: 'Run SQL statements in one transaction',
    description:
      'Runs several SQL statements in one transaction: all of them take effect, or none (the first error rolls everything back). ' +
      'Answers each statement\'s result, rows capped at MCP_MAX_ROWS. Under MCP_READ_ONLY the transaction is read-only.',
    toolset: 'sql',
    annotations: RUNS_SQL,
    runsReadOnly: true,
    input: { ...sqlTarget, queries: z.array(z.string().min(1)).min(1).max(100).describe('The statements, in order') },
    output: z.object({ results: z.array(sqlResult) }),
    async run(args, context) {
      const results = await callField<SqlResult[]>(context, 'mutation', 'runSqlTransaction', {
        input: { ...targetOf(args), queries: args.queries, ...readOnlyOf(context) },
      });
      return { results: results.map((result) => cappedResult(result, context.settings.maxRows)) };
    },
  }),
  defineTool({
    name: 'explain_sql_statement',
    title: 'Explain a SQL statement',
    description:
      "Answers PostgreSQL's plan for a statement as JSON (EXPLAIN FORMAT JSON), to find missing indexes or slow joins. The statement " +
      'is planned in a transaction that is always rolled back: it never writes.',
    toolset: 'sql',
    annotations: READS,
    input: { ...sqlTarget, query: z.string().min(1).describe('The statement to plan') },
    output: z.object({ plan: z.unknown() }),
    async run(args, context) {
      const plan = await callField(context, 'mutation', 'explainSql', { input: { ...targetOf(args), query: args.query } });
      return { plan };
    },
  }),
  defineTool({
    name: 'list_databases',
    title: 'List databases of a branch',
    description: 'Lists the databases on a branch (name, owner). Free; changes nothing.',
    toolset: 'sql',
    annotations: READS,
    input: { project_id: projectId, branch_id: branchId },
    output: listOf('databases'),
    run: (args, context) => listAnswer(context, 'databases', 'branchDatabases', branchArgs(args), 'More databases exist than MCP_MAX_ROWS allows'),
  }),
  defineTool({
    name: 'get_database_tables',
    title: 'List tables',
    description: 'Lists the tables (and views) of a database, in one schema (default public). Free; changes nothing.',
    toolset: 'sql',
    annotations: READS,
    input: { ...sqlTarget, schema: schemaName },
    output: listOf('tables'),
    run: (args, context) =>
      listAnswer(context, 'tables', 'databaseTables', { ...targetOf(args), schema: args.schema },
        'More tables exist than MCP_MAX_ROWS allows; query information_schema.tables with run_sql to page'),
  }),
  defineTool({
    name: 'describe_table_schema',
    title: 'Describe a table',
    description: "Shows a table's columns (name, type, nullable, default), keys and indexes. Free; changes nothing.",
    toolset: 'sql',
    annotations: READS,
    input: { ...sqlTarget, table_name: z.string().min(1).describe('The table'), schema: schemaName },
    output: record,
    run: (args, context) => callField(context, 'query', 'tableSchema', { ...targetOf(args), tableName: args.table_name, schema: args.schema }),
  }),
];
