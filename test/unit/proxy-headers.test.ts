import { describe, expect, it } from '@jest/globals';
import { callerResponseHeaders, upstreamRequestHeaders, type HeaderPolicy } from '../../subgraphs/marketplace/proxy/headers.js';

const policy = (overrides: Partial<HeaderPolicy> = {}): HeaderPolicy => ({
  allowedPassthroughHeaders: [],
  passthroughHeaderRewrite: {},
  upstreamHeaders: {},
  requestContentType: null,
  ...overrides,
});

describe('headers sent upstream', () => {
  it('never forwards the caller’s Authorization or cookies, even when a publisher allows them', () => {
    const headers = upstreamRequestHeaders(
      { authorization: 'Bearer ak_secret', cookie: 'session=1', 'x-payment': 'sig', 'x-trace': 't' },
      policy({ allowedPassthroughHeaders: ['Authorization', 'Cookie', 'X-Payment', 'X-Trace'] }),
    );
    expect(headers).toEqual({ 'x-trace': 't' });
  });

  it('passes only allowed headers, renamed by the rewrite map, then adds the publisher’s fixed headers', () => {
    const headers = upstreamRequestHeaders(
      { 'x-user-region': 'eu', 'x-other': 'dropped', 'content-type': 'application/json', accept: 'application/json' },
      policy({
        allowedPassthroughHeaders: ['X-User-Region'],
        passthroughHeaderRewrite: { 'X-User-Region': 'X-Region' },
        upstreamHeaders: { 'X-Api-Version': '2024-01' },
      }),
    );
    expect(headers).toEqual({ 'x-region': 'eu', 'x-api-version': '2024-01', 'content-type': 'application/json', accept: 'application/json' });
  });

  it('applies the publisher’s request content type, and a rewrite cannot smuggle a credential header in', () => {
    const headers = upstreamRequestHeaders(
      { 'x-token': 'mine', 'content-type': 'text/plain' },
      policy({ allowedPassthroughHeaders: ['x-token'], passthroughHeaderRewrite: { 'x-token': 'Authorization' }, requestContentType: 'application/x-www-form-urlencoded' }),
    );
    expect(headers).toEqual({ 'content-type': 'application/x-www-form-urlencoded' });
  });
});

describe('headers returned to the caller', () => {
  it('keeps content and caching headers, drops cookies and connection headers', () => {
    expect(
      callerResponseHeaders({ 'content-type': 'text/event-stream', 'set-cookie': ['a=1'], connection: 'keep-alive', etag: '"1"', 'x-ratelimit-remaining': '9', server: 'nginx' }),
    ).toEqual({
      'content-type': 'text/event-stream',
      etag: '"1"',
      'x-ratelimit-remaining': '9',
      'content-security-policy': "sandbox; default-src 'none'",
      'x-content-type-options': 'nosniff',
    });
  });

  it('confines the answer: an upstream cannot loosen the sandbox or ask for sniffing', () => {
    const headers = callerResponseHeaders({ 'content-type': 'text/html', 'content-security-policy': "default-src *", 'x-content-type-options': 'off' });
    expect(headers['content-security-policy']).toBe("sandbox; default-src 'none'");
    expect(headers['x-content-type-options']).toBe('nosniff');
  });
});
