import type { TestPlatform } from './platform.js';

export interface CreatedTestProject {
  project: { id: string; default_branch_id: string; role_name: string };
  connection_uri: string;
  password: string;
}

/** A project through REST, as an agent would create it. */
export async function createTestProject(t: TestPlatform, token: string, name = 'shop'): Promise<CreatedTestProject> {
  const response = await t.api.post('/projects', { name }, { token });
  if (response.status !== 201) throw new Error(`project creation failed: ${JSON.stringify(response.body)}`);
  return response.body.data;
}

/** Runs one statement on a branch's database through REST; the whole response. */
export const runSqlAs = (t: TestPlatform, token: string, projectId: string, branchId: string, query: string, extra: Record<string, unknown> = {}) =>
  t.api.post(`/projects/${projectId}/branches/${branchId}/sql`, { database: 'app', query, ...extra }, { token });
