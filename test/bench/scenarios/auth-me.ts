import type { BenchScenario } from '../scenario.js';

/** GET /auth/me through REST and the same operation through /graphql, with an agent's API key. */
export const authMeScenario: BenchScenario = {
  name: 'auth/me',
  async run({ url, api, measure }) {
    const agent = await api.post('/auth/agent', { name: 'bench' });
    const headers = { authorization: `Bearer ${agent.body.data.agent.api_key}`, 'content-type': 'application/json' };
    const query = JSON.stringify({ query: '{ me { id email name kind emailVerified createdAt defaultOrganization { id name personal role createdAt } } }' });
    await measure({ url: `${url}/auth/me`, headers, amount: 500 });
    const rest = await measure({ url: `${url}/auth/me`, headers, connections: 10, durationSeconds: 5 });
    const graphql = await measure({ url: `${url}/graphql`, method: 'POST', headers, body: query, connections: 10, durationSeconds: 5 });
    return [
      { scenario: 'auth/me', case: 'REST GET /auth/me', measurement: rest },
      { scenario: 'auth/me', case: 'GraphQL { me }', measurement: graphql },
    ];
  },
};
