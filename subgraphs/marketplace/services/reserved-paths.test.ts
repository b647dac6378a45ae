import { describe, expect, it } from '@jest/globals';
import { isMarketplaceSubpath } from './reserved-paths.js';

describe('marketplace sub-paths', () => {
  it('tells the proxy which /publishers/{slug}/... routes are not proxied', () => {
    expect(isMarketplaceSubpath('post', 'estimate')).toBe(true);
    expect(isMarketplaceSubpath('GET', '/logo')).toBe(true);
    expect(isMarketplaceSubpath('GET', 'estimate')).toBe(false);
    expect(isMarketplaceSubpath('GET', 'v1/logo')).toBe(false);
  });
});
