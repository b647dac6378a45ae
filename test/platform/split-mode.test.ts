import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { operationDigest, signInternalIdentity, SpentGatewayTokens, verifyInternalIdentity, type InternalCall } from '../../shared/auth/internal-token.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { registerAgent } from '../support/accounts.js';
import { splitSecrets, startSubgraphProcess, type SubgraphProcess } from '../support/subgraph-process.js';

const METRICS_TOKEN = randomBytes(24).toString('hex');
const secrets = splitSecrets();

let inProcess: TestPlatform;
let split: TestPlatform;
let subgraph: SubgraphProcess;

beforeAll(async () => {
  inProcess = await startTestPlatform(secrets);
  subgraph = await startSubgraphProcess('accounts', inProcess.database.url, { ...secrets, METRICS_TOKEN });
  split = await startTestPlatform({ ...secrets, SUBGRAPH_ACCOUNTS_URL: subgraph.url }, { database: inProcess.database });
});
afterAll(async () => {
  subgraph?.stop();
  await split?.close();
  await inProcess?.close();
});

describe('split mode', () => {
  it('serves the same answers when the accounts subgraph runs as its own process', async () => {
    const agent = await registerAgent(split, { name: 'split-agent' });
    const viaSplit = await split.api.get('/auth/me', { token: agent.api_key });
    const viaInProcess = await inProcess.api.get('/auth/me', { token: agent.api_key });
    expect(viaSplit.status).toBe(200);
    expect(viaSplit.body).toEqual(viaInProcess.body);
    const query = '{ me { id name kind defaultOrganization { id role } } organizations { id personal } }';
    const graphqlSplit = await split.api.graphql(query, {}, { token: agent.api_key });
    expect(graphqlSplit.body).toEqual((await inProcess.api.graphql(query, {}, { token: agent.api_key })).body);
  });

  it('carries error codes across the process boundary', async () => {
    const response = await split.api.get('/auth/me');
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('unauthorized');
  });

  const ME = '{ me { id } }';
  const askSubgraph = (headers: Record<string, string>, query = ME) =>
    fetch(subgraph.url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) }).then((r) => r.json() as Promise<any>);
  /** A token as the gateway makes it, for the accounts subgraph and `{ me { id } }`, unless `call` says otherwise. */
  const gatewayToken = (call: Partial<InternalCall> = {}, secret = secrets.INTERNAL_SECRET) =>
    signInternalIdentity(secret, { subgraph: 'accounts', requestId: 'r-1', identity: null, ip: null, operation: operationDigest(ME, {}), ...call });

  it('the subgraph refuses anyone but the gateway', async () => {
    expect((await askSubgraph({})).errors[0].extensions.code).toBe('gateway_token_required');
    const forged = await gatewayToken({}, 'another secret that is long enough to sign');
    expect((await askSubgraph({ 'x-internal-identity': forged })).errors[0].extensions.code).toBe('invalid_gateway_token');
    expect((await askSubgraph({ 'x-internal-identity': await gatewayToken() })).errors[0].extensions.code).toBe('unauthorized');
  });

  it('a gateway token is good only at the subgraph and for the operation it was made for: one seen on the way cannot be replayed elsewhere', async () => {
    const forWallet = await gatewayToken({ subgraph: 'wallet' });
    expect((await askSubgraph({ 'x-internal-identity': forWallet })).errors[0].extensions.code).toBe('invalid_gateway_token');
    const forMe = await gatewayToken();
    const other = await askSubgraph({ 'x-internal-identity': forMe }, '{ organizations { id } }');
    expect(other.errors[0].extensions.code).toBe('invalid_gateway_token');
  });

  it('a gateway token is good for one request: seen on the way, it cannot run its operation again (a paid call twice, a second key)', async () => {
    const token = await gatewayToken();
    expect((await askSubgraph({ 'x-internal-identity': token })).errors[0].extensions.code).toBe('unauthorized');
    expect((await askSubgraph({ 'x-internal-identity': token })).errors[0].extensions.code).toBe('invalid_gateway_token');
  });

  it('the subgraph process serves its own metrics, behind the metrics token', async () => {
    const metricsUrl = subgraph.url.replace(/\/graphql$/, '/metrics');
    expect((await fetch(metricsUrl)).status).toBe(401);
    expect((await fetch(metricsUrl, { headers: { authorization: 'Basic eDp5' } })).status).toBe(401);
    const scraped = await fetch(metricsUrl, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toMatch(/^acp_process_cpu_seconds_total /m);
  });

  it('the gateway’s token carries the caller’s address, for per-address limits behind it', async () => {
    const token = await gatewayToken({ requestId: 'r-2', ip: '203.0.113.9' });
    const expected = { subgraph: 'accounts', operation: operationDigest(ME, {}), spent: new SpentGatewayTokens() };
    expect(await verifyInternalIdentity(secrets.INTERNAL_SECRET, token, expected)).toMatchObject({ requestId: 'r-2', ip: '203.0.113.9' });
  });
});

describe('split mode settings', () => {
  it('a SUBGRAPH_<NAME>_URL naming no subgraph (a typo) stops the start, instead of leaving that subgraph in-process', async () => {
    await expect(startTestPlatform({ ...secrets, SUBGRAPH_ACOUNTS_URL: 'http://127.0.0.1:1/graphql' }, { database: inProcess.database })).rejects.toThrow(
      /SUBGRAPH_ACOUNTS_URL: no such subgraph/,
    );
  });
});
