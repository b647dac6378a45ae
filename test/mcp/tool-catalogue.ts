/** The specification's "Tool-protocol server" table: each tool's parameters (R = required) and their JSON types. */
export const SPEC_TOOLS: Record<string, { required: string[]; types: Record<string, string> }> = {
  list_projects: { required: [], types: {} },
  create_project: { required: ['name', 'region'], types: { name: 'string', region: 'string' } },
  describe_project: { required: ['project_id'], types: { project_id: 'string' } },
  delete_project: { required: ['project_id'], types: { project_id: 'string' } },
  list_branches: { required: ['project_id'], types: { project_id: 'string' } },
  create_branch: { required: ['project_id', 'name'], types: { project_id: 'string', name: 'string', parent_branch_id: 'string' } },
  describe_branch: { required: ['project_id', 'branch_id'], types: { project_id: 'string', branch_id: 'string' } },
  delete_branch: { required: ['project_id', 'branch_id'], types: { project_id: 'string', branch_id: 'string' } },
  run_sql: { required: ['project_id', 'branch_id', 'database', 'query'], types: { project_id: 'string', branch_id: 'string', database: 'string', query: 'string' } },
  run_sql_transaction: { required: ['project_id', 'branch_id', 'database', 'queries'], types: { project_id: 'string', branch_id: 'string', database: 'string', queries: 'array' } },
  explain_sql_statement: { required: ['project_id', 'branch_id', 'database', 'query'], types: { project_id: 'string', branch_id: 'string', database: 'string', query: 'string' } },
  list_databases: { required: ['project_id', 'branch_id'], types: { project_id: 'string', branch_id: 'string' } },
  get_database_tables: { required: ['project_id', 'branch_id', 'database'], types: { project_id: 'string', branch_id: 'string', database: 'string', schema: 'string' } },
  describe_table_schema: {
    required: ['project_id', 'branch_id', 'database', 'table_name'],
    types: { project_id: 'string', branch_id: 'string', database: 'string', table_name: 'string', schema: 'string' },
  },
  list_endpoints: { required: ['project_id', 'branch_id'], types: { project_id: 'string', branch_id: 'string' } },
  create_endpoint: {
    required: ['project_id', 'branch_id'],
    types: { project_id: 'string', branch_id: 'string', autoscaling_min: 'integer', autoscaling_max: 'integer' },
  },
  start_endpoint: { required: ['project_id', 'branch_id', 'endpoint_id'], types: { project_id: 'string', branch_id: 'string', endpoint_id: 'string' } },
  suspend_endpoint: { required: ['project_id', 'branch_id', 'endpoint_id'], types: { project_id: 'string', branch_id: 'string', endpoint_id: 'string' } },
  list_agent_publishers: { required: [], types: { search: 'string', is_verified: 'boolean', limit: 'integer', offset: 'integer' } },
  get_agent_publisher: { required: ['slug'], types: { slug: 'string' } },
  execute_paid_query: { required: ['publisher', 'query'], types: { publisher: 'string', query: 'string', database: 'string', confirm: 'boolean' } },
  execute_paid_api: { required: ['publisher'], types: { publisher: 'string', method: 'string', path: 'string', body: 'object', confirm: 'boolean' } },
  estimate_query_cost: { required: ['publisher', 'query'], types: { publisher: 'string', query: 'string' } },
  get_prepaid_balance: { required: [], types: {} },
  get_transaction_history: { required: [], types: { limit: 'integer', offset: 'integer' } },
  create_prepaid_deposit: { required: ['amount_usd'], types: { amount_usd: 'number' } },
};

export const READ_ONLY_TOOLS = [
  'list_projects', 'describe_project', 'list_branches', 'describe_branch', 'explain_sql_statement', 'list_databases', 'get_database_tables',
  'describe_table_schema', 'list_endpoints', 'list_agent_publishers', 'get_agent_publisher', 'estimate_query_cost', 'get_prepaid_balance',
  'get_transaction_history',
];
export const PAID_TOOLS = ['execute_paid_query', 'execute_paid_api'];
