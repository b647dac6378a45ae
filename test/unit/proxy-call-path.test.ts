import { describe, expect, it } from '@jest/globals';
import { checkedCallPath } from '../../subgraphs/marketplace/proxy/call-path.js';
import { upstreamUrl } from '../../subgraphs/marketplace/proxy/upstream-url.js';

const API = 'https://api.example.com/tenant-a/v1/';

describe('the called path', () => {
  it.each(['/', '/users/42', '/search/a%20b', '/quotes/AAPL.json', '/files/report..pdf', '/a/.../b', '/users/%6De', '/users/', '/a;b=c', '/a+b@c:d', '/caf%C3%A9'])(
    'passes %p unchanged, and the upstream sees it under api_url',
    (path) => {
      expect(checkedCallPath(path)).toBe(path);
      expect(upstreamUrl(API, path, '', {}).pathname.startsWith('/tenant-a/v1/')).toBe(true);
    },
  );

  it.each([
    ['/free/../premium/42', 'dot segment'],
    ['/%2e%2e/%2e%2e/other/secret', 'encoded dot segment'],
    ['/x/.%2E/admin', 'mixed-case encoded dot segment'],
    ['/x/%2e/y', 'single encoded dot'],
    ['/x/..;jsessionid=1/admin', 'dot segment with a parameter'],
    ['/free/..\\premium\\42', 'backslash'],
    ['/free/%5Cpremium', 'encoded backslash'],
    ['/free/..%2Fpremium%2F42', 'encoded slash'],
    ['/users/1?x=2', 'raw question mark'],
    ['/users/1#top', 'raw fragment'],
    ['/fr\tee', 'raw tab (the URL parser drops it)'],
    ['/users/%0Aadmin', 'encoded newline'],
    ['/caf%E9', 'an escape that is not UTF-8'],
    ['/users/%E0%A4%A', 'malformed percent-encoding'],
    ['/100%', 'a stray percent sign'],
    ['users/1', 'no leading slash'],
    ['//x/echo/secret', 'a leading empty segment (an upstream may read x as a host)'],
    ['/echo//secret', 'an empty segment (the policy would skip it)'],
  ])('refuses %p (%s) with 400 invalid_path', (path) => {
    expect(() => checkedCallPath(path)).toThrow(expect.objectContaining({ status: 400, code: 'invalid_path' }));
  });
});

describe('the upstream URL', () => {
  it('is api_url’s path plus the called path, with the caller’s query string as written', () => {
    const url = upstreamUrl(API, '/search/a%20b', 'q=a%20b&tags[]=x&empty', {});
    expect(url.href).toBe('https://api.example.com/tenant-a/v1/search/a%20b?q=a%20b&tags[]=x&empty');
  });

  it('adds the injected credential, replacing a parameter of that name the caller sent, and keeps the rest as written', () => {
    const url = upstreamUrl(API, '/q', 'api_key=mine&q=a%20b&api%5Fkey=also-mine&x=1', { api_key: 's3cret&more' });
    expect(url.search).toBe('?q=a%20b&x=1&api_key=s3cret%26more');
    expect(url.searchParams.getAll('api_key')).toEqual(['s3cret&more']);
  });

  it('keeps the query parameters api_url carries (?api-version=2) before the caller’s; the injected credential replaces one there too', () => {
    const url = upstreamUrl('https://api.example.com/v1?api-version=2&api_key=placeholder', '/items', 'q=1', { api_key: 's3cret' });
    expect(url.search).toBe('?api-version=2&q=1&api_key=s3cret');
    expect(upstreamUrl('https://api.example.com/v1?api-version=2', '/items', '', {}).search).toBe('?api-version=2');
  });

  it('drops a parameter the caller sends that api_url sets itself, however spelled: the publisher’s tenant is not the caller’s to change', () => {
    const url = upstreamUrl('https://api.example.com/v1?tenant=a&api-version=2', '/items', 'tenant=b&q=1&tenan%74=c&api-version=3', {});
    expect(url.search).toBe('?tenant=a&api-version=2&q=1');
  });
});
