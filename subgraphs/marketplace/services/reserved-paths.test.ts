import { describe, expect, it } from '@jest/globals';
import { isMarketplaceSubpath, toolCallName } from './reserved-paths.js';

describe('marketplace sub-paths', () => {
  it('tells the proxy which /publishers/{slug}/... routes are not proxied', () => {
    expect(isMarketplaceSubpath('post', 'estimate')).toBe(true);
    expect(isMarketplaceSubpath('GET', '/logo')).toBe(true);
    expect(isMarketplaceSubpath('GET', 'estimate')).toBe(false);
    expect(isMarketplaceSubpath('GET', 'v1/logo')).toBe(false);
  });
});

describe('tool calls', () => {
  it('a POST of one segment names a tool, decoded; anything else, or a marketplace route, names none', () => {
    expect(toolCallName('post', '/add')).toBe('add');
    expect(toolCallName('POST', '/get%20quote')).toBe('get quote');
    expect(toolCallName('GET', '/add')).toBeNull();
    expect(toolCallName('POST', '/tools/add')).toBeNull();
    expect(toolCallName('POST', '/')).toBeNull();
    expect(toolCallName('POST', '/estimate')).toBeNull();
  });
});
