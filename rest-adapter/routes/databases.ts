import { bodyObject, stringQuery, type RestRequest, type RestRoute } from '../route.js';

const project = (request: RestRequest) => ({ projectId: request.params.project_id });
const branch = (request: RestRequest) => ({ ...project(request), branchId: request.params.branch_id });
const endpoint = (request: RestRequest) => ({ ...branch(request), endpointId: request.params.endpoint_id });
/** A body that names the project and branch of its path: the path wins. */
const branchInput = (request: RestRequest) => ({ input: { ...bodyObject(request), project_id: request.params.project_id, branch_id: request.params.branch_id } });
const tables = (request: RestRequest) => ({ ...branch(request), database: request.params.database, schema: stringQuery(request, 'schema') });

const BRANCH = '/projects/:project_id/branches/:branch_id';

/** Managed databases: the tools' operations (projects, branches, databases, endpoints, SQL) as REST rows. */
export const databasesRoutes: RestRoute[] = [
  { method: 'GET', path: '/databases', document: 'query { databases { ...DatabaseWithContextFields } }' },
  { method: 'GET', path: '/projects', document: 'query { projects { ...DatabaseProjectFields } }' },
  {
    method: 'POST',
    path: '/projects',
    document: 'mutation($input: CreateProjectInput!) { createProject(input: $input) { project { ...DatabaseProjectFields } connectionUri password } }',
    variables: (request) => ({ input: bodyObject(request) }),
    status: 201,
  },
  { method: 'GET', path: '/projects/:project_id', document: 'query($projectId: ID!) { project(projectId: $projectId) { ...DatabaseProjectFields } }', variables: project },
  { method: 'DELETE', path: '/projects/:project_id', document: 'mutation($projectId: ID!) { deleteProject(projectId: $projectId) }', variables: project, status: 204 },
  {
    method: 'POST',
    path: '/projects/:project_id/reveal-password',
    document: 'mutation($projectId: ID!) { revealProjectPassword(projectId: $projectId) }',
    variables: project,
    data: (password) => ({ password }),
  },
  { method: 'GET', path: '/projects/:project_id/branches', document: 'query($projectId: ID!) { branches(projectId: $projectId) { ...DatabaseBranchFields } }', variables: project },
  {
    method: 'POST',
    path: '/projects/:project_id/branches',
    document: 'mutation($input: CreateBranchInput!) { createBranch(input: $input) { ...DatabaseBranchFields } }',
    variables: (request) => ({ input: { ...bodyObject(request), project_id: request.params.project_id } }),
    status: 201,
  },
  { method: 'GET', path: BRANCH, document: 'query($projectId: ID!, $branchId: ID!) { branch(projectId: $projectId, branchId: $branchId) { ...DatabaseBranchFields } }', variables: branch },
  { method: 'DELETE', path: BRANCH, document: 'mutation($projectId: ID!, $branchId: ID!) { deleteBranch(projectId: $projectId, branchId: $branchId) }', variables: branch, status: 204 },
  {
    method: 'GET',
    path: `${BRANCH}/databases`,
    document: 'query($projectId: ID!, $branchId: ID!) { branchDatabases(projectId: $projectId, branchId: $branchId) { ...ManagedDatabaseFields } }',
    variables: branch,
  },
  {
    method: 'POST',
    path: `${BRANCH}/databases`,
    document: 'mutation($input: CreateDatabaseInput!) { createDatabase(input: $input) { ...ManagedDatabaseFields } }',
    variables: branchInput,
    status: 201,
  },
  {
    method: 'DELETE',
    path: `${BRANCH}/databases/:database`,
    document: 'mutation($projectId: ID!, $branchId: ID!, $name: String!) { dropDatabase(projectId: $projectId, branchId: $branchId, name: $name) }',
    variables: (request) => ({ ...branch(request), name: request.params.database }),
    status: 204,
  },
  {
    method: 'GET',
    path: `${BRANCH}/databases/:database/tables`,
    document:
      'query($projectId: ID!, $branchId: ID!, $database: String!, $schema: String) { databaseTables(projectId: $projectId, branchId: $branchId, database: $database, schema: $schema) { schema name type rowEstimate totalSizeBytes } }',
    variables: tables,
  },
  {
    method: 'GET',
    path: `${BRANCH}/databases/:database/tables/:table_name`,
    document:
      'query($projectId: ID!, $branchId: ID!, $database: String!, $tableName: String!, $schema: String) { tableSchema(projectId: $projectId, branchId: $branchId, database: $database, tableName: $tableName, schema: $schema) { schema name columns { name dataType nullable default position } indexes { name definition unique primary } constraints { name type definition } foreignKeys { name columns referencedSchema referencedTable referencedColumns } } }',
    variables: (request) => ({ ...tables(request), tableName: request.params.table_name }),
  },
  {
    method: 'GET',
    path: `${BRANCH}/endpoints`,
    document: 'query($projectId: ID!, $branchId: ID!) { endpoints(projectId: $projectId, branchId: $branchId) { ...ComputeEndpointFields } }',
    variables: branch,
  },
  {
    method: 'POST',
    path: `${BRANCH}/endpoints`,
    document: 'mutation($input: CreateEndpointInput!) { createEndpoint(input: $input) { ...ComputeEndpointFields } }',
    variables: branchInput,
    status: 201,
  },
  {
    method: 'POST',
    path: `${BRANCH}/endpoints/:endpoint_id/start`,
    document: 'mutation($projectId: ID!, $branchId: ID!, $endpointId: ID!) { startEndpoint(projectId: $projectId, branchId: $branchId, endpointId: $endpointId) { ...ComputeEndpointFields } }',
    variables: endpoint,
  },
  {
    method: 'POST',
    path: `${BRANCH}/endpoints/:endpoint_id/suspend`,
    document: 'mutation($projectId: ID!, $branchId: ID!, $endpointId: ID!) { suspendEndpoint(projectId: $projectId, branchId: $branchId, endpointId: $endpointId) { ...ComputeEndpointFields } }',
    variables: endpoint,
  },
  {
    method: 'POST',
    path: `${BRANCH}/sql`,
    document: 'mutation($input: RunSqlInput!) { runSql(input: $input) { ...SqlResultFields } }',
    variables: branchInput,
  },
  {
    method: 'POST',
    path: `${BRANCH}/sql/transaction`,
    document: 'mutation($input: RunSqlTransactionInput!) { runSqlTransaction(input: $input) { ...SqlResultFields } }',
    variables: branchInput,
  },
  {
    method: 'POST',
    path: `${BRANCH}/sql/explain`,
    document: 'mutation($input: ExplainSqlInput!) { explainSql(input: $input) }',
    variables: branchInput,
  },
];
