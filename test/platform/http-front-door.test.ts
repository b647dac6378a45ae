import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getIntrospectionQuery } from 'graphql';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { registerAgent } from '../support/accounts.js';

let t: TestPlatform;
beforeAll(async () => {
  t = await startTestPlatform();
});
afterAll(() => t.close());

describe('the HTTP front door', () => {
  it('answers /healthz always and /readyz when the database answers', async () => {
    expect(await t.api.get('/healthz')).toMatchObject({ status: 200, body: { data: { status: 'ok' } } });
    expect(await t.api.get('/readyz')).toMatchObject({ status: 200, body: { data: { status: 'ready' } } });
  });

  it('malformed JSON is a 400 invalid_json, never a 500', async () => {
    const response = await t.api.request('POST', '/auth/signup', undefined, { raw: '{"email": ' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: { code: 'invalid_json', message: expect.any(String) } });
  });

  it('a body over 1 MB is refused with 413', async () => {
    const response = await t.api.post('/auth/signup', { email: 'a@b.co', password: 'x'.repeat(1_100_000) });
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe('payload_too_large');
  });

  it('a JSON array or string body is a 400, not a 500', async () => {
    expect((await t.api.request('POST', '/auth/signup', undefined, { raw: '[1,2]' })).status).toBe(400);
    expect((await t.api.request('POST', '/auth/agent', undefined, { raw: '"x"' })).status).toBe(400);
  });

  it('a path that is not valid percent-encoding is a 400, not a 500', async () => {
    for (const path of ['/organizations/%E0%A4/api-keys', '/publishers/%E0%A4%A/anything']) {
      const response = await t.api.get(path);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('invalid_request');
    }
    expect((await t.api.post('/notifications/%E0%A4%A/read')).status).toBe(400);
  });

  it('an unknown route is a 404 with a code', async () => {
    const response = await t.api.get('/no/such/path');
    expect(response).toMatchObject({ status: 404, body: { error: { code: 'route_not_found' } } });
  });

  it('sends security headers and a request id', async () => {
    const response = await t.api.get('/healthz');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(response.headers.get('x-powered-by')).toBeNull();
    const echoed = await t.api.get('/auth/me', { headers: { 'x-request-id': 'trace-12345678' } });
    expect(echoed.headers.get('x-request-id')).toBe('trace-12345678');
  });
});

describe('GraphQL at /graphql', () => {
  it('refuses a simple cross-site request (CSRF prevention)', async () => {
    const response = await fetch(`${t.api.baseUrl}/graphql?query=${encodeURIComponent('{ __typename }')}`);
    expect(response.status).toBe(400);
  });

  it('carries the same error code and status in extensions as REST', async () => {
    const response = await t.api.graphql('{ me { id } }');
    expect(response.body.errors![0].extensions).toMatchObject({ code: 'unauthorized', status: 401 });
  });

  it('refuses queries that are too deep or too aliased', async () => {
    const agent = await registerAgent(t);
    const shallow = await t.api.graphql('{ me { defaultOrganization { id } } }', {}, { token: agent.api_key });
    expect(shallow.body.errors).toBeUndefined();
    expect((await t.api.graphql(getIntrospectionQuery())).body.errors).toBeUndefined();
    const nested = `{ __schema { types { fields { type ${'{ ofType '.repeat(24)}{ name }${' }'.repeat(24)} } } } }`;
    expect((await t.api.graphql(nested)).body.errors?.[0]?.extensions?.status).toBe(400);
    const aliases = `{ ${Array.from({ length: 30 }, (_, i) => `a${i}: me { id }`).join(' ')} }`;
    expect((await t.api.graphql(aliases, {}, { token: agent.api_key })).body.errors?.[0]?.extensions?.status).toBe(400);
  });

  it('masks unexpected failures: no stack, no SQL, a request id to quote', async () => {
    const response = await t.api.graphql('{ me { id } }', {}, { token: 'ak_' + 'x'.repeat(43) });
    expect(response.status).toBe(401);
    expect(JSON.stringify(response.body)).not.toMatch(/select|stack|postgres/i);
  });
});
