import { describe, expect, it } from '@jest/globals';
import { divideUp, formatMicros, parseMicros } from './decimal.js';
import { isWellFormedPathTemplate, matchEndpoint, matchIgnoringCase } from './match-endpoint.js';
import type { PublisherEndpoint } from '../entities/endpoint.js';
import { priceCall, priceOfCall, priceUpstreamCost, reserveFor, type PricingTerms } from './pricing.js';

const usd = (text: string) => parseMicros(text, 'test');
const terms = (overrides: Partial<PricingTerms> = {}): PricingTerms => ({
  pricingModel: 'per_request',
  basePricePer1000Rows: 0n,
  markupMultiplier: usd('1'),
  minCharge: 0n,
  pricePerCall: null,
  pricePerGet: null,
  pricePerPost: null,
  pricePerPut: null,
  pricePerPatch: null,
  pricePerDelete: null,
  pricePerExecution: null,
  unresolvedFallbackCharge: null,
  reserveMaxCharge: null,
  ...overrides,
});
const total = (price: { total: bigint }) => formatMicros(price.total);

describe('decimal strings', () => {
  it('parses and formats exactly, without floats', () => {
    expect(usd('0.001')).toBe(1000n);
    expect(usd('12.5')).toBe(12_500_000n);
    expect(formatMicros(100_000n)).toBe('0.10');
    expect(formatMicros(1_000n)).toBe('0.001');
    expect(formatMicros(0n)).toBe('0.00');
  });

  it.each(['-1', '0.0000001', 'abc', '', '1e3'])('refuses %p with invalid_decimal', (text) => {
    expect(() => parseMicros(text, 'price_per_call')).toThrow('price_per_call must be a non-negative decimal');
  });
});

describe('priceCall', () => {
  it('price_per_call is the price when nothing more specific is set', () => {
    expect(total(priceCall(terms({ pricePerCall: usd('0.01') }), null, { method: 'GET' }, 0n))).toBe('0.01');
  });

  it.each([
    ['GET', 'pricePerGet'],
    ['POST', 'pricePerPost'],
    ['PUT', 'pricePerPut'],
    ['PATCH', 'pricePerPatch'],
    ['DELETE', 'pricePerDelete'],
  ] as const)('price_per_%s wins over price_per_call for a %s call', (method, field) => {
    const pricing = terms({ pricePerCall: usd('0.01'), [field]: usd('0.05') });
    expect(total(priceCall(pricing, null, { method }, 0n))).toBe('0.05');
    const other = method === 'GET' ? 'POST' : 'GET';
    expect(total(priceCall(pricing, null, { method: other }, 0n))).toBe('0.01');
  });

  it("an endpoint's own price wins over every per-method price", () => {
    const pricing = terms({ pricePerCall: usd('0.01'), pricePerGet: usd('0.02') });
    expect(total(priceCall(pricing, { price: usd('0.5') }, { method: 'GET' }, 0n))).toBe('0.50');
    expect(total(priceCall(pricing, { price: null }, { method: 'GET' }, 0n))).toBe('0.02');
  });

  it('price_per_execution prices a compute run before price_per_call', () => {
    const pricing = terms({ pricePerCall: usd('0.01'), pricePerExecution: usd('0.03') });
    expect(total(priceCall(pricing, null, { method: 'POST', execution: true }, 0n))).toBe('0.03');
    expect(total(priceCall(pricing, null, { method: 'POST' }, 0n))).toBe('0.01');
  });

  it('min_charge raises a cheaper call and says so', () => {
    const price = priceCall(terms({ pricePerCall: usd('0.001'), minCharge: usd('0.005') }), null, { method: 'GET' }, 0n);
    expect(price).toMatchObject({ base: usd('0.005'), minimumApplied: true, total: usd('0.005') });
    expect(priceCall(terms({ pricePerCall: usd('0.01'), minCharge: usd('0.005') }), null, { method: 'GET' }, 0n).minimumApplied).toBe(false);
  });

  it('markup_multiplier multiplies after the minimum', () => {
    const price = priceCall(terms({ pricePerCall: usd('0.002'), minCharge: usd('0.004'), markupMultiplier: usd('1.5') }), null, { method: 'GET' }, 0n);
    expect(price).toMatchObject({ base: usd('0.004'), markup: usd('0.002'), total: usd('0.006') });
  });

  it('gateway_fee_percent is added on top of the marked-up price', () => {
    const price = priceCall(terms({ pricePerCall: usd('1'), markupMultiplier: usd('1.2') }), null, { method: 'GET' }, usd('2.5'));
    expect(price).toMatchObject({ base: usd('1'), markup: usd('0.2'), fee: usd('0.03'), total: usd('1.23') });
  });

  it('rounds a fraction of a micro-dollar up, never down', () => {
    const price = priceCall(terms({ pricePerCall: 1n }), null, { method: 'GET' }, usd('1'));
    expect(price).toMatchObject({ fee: 1n, total: 2n });
  });

  it('per_row pricing charges base_price_per_1000_rows on the row count', () => {
    const pricing = terms({ pricingModel: 'per_row', basePricePer1000Rows: usd('0.02'), pricePerCall: usd('9') });
    expect(total(priceCall(pricing, null, { method: 'POST', rows: 2500 }, 0n))).toBe('0.05');
    expect(total(priceCall(pricing, null, { method: 'POST', rows: 1 }, 0n))).toBe('0.00002');
    expect(total(priceCall(pricing, null, { method: 'POST', rows: 0 }, 0n))).toBe('0.00');
  });

  it('never charges more than reserve_max_charge, the parts still adding up', () => {
    const pricing = terms({ pricingModel: 'per_row', basePricePer1000Rows: usd('0.01'), markupMultiplier: usd('1.1'), reserveMaxCharge: usd('0.2') });
    const price = priceCall(pricing, null, { method: 'POST', rows: 25_000 }, usd('2'));
    expect(price.total).toBe(usd('0.2'));
    expect(price.base + price.markup + price.fee).toBe(usd('0.2'));
    expect(priceCall(pricing, null, { method: 'POST', rows: 1000 }, 0n).total).toBe(usd('0.011'));
  });

  it('a call with no price at all costs nothing (unless a minimum applies)', () => {
    expect(priceCall(terms(), null, { method: 'GET' }, usd('5')).total).toBe(0n);
  });
});

describe('pay_per_use', () => {
  const pricing = terms({ markupMultiplier: usd('1.1'), unresolvedFallbackCharge: usd('0.2'), reserveMaxCharge: usd('1') });

  it('charges the upstream-reported cost with markup and fee', () => {
    expect(priceUpstreamCost(pricing, usd('0.1'), usd('10')).total).toBe(usd('0.121'));
  });

  it('charges unresolved_fallback_charge when the cost cannot be read', () => {
    expect(priceUpstreamCost(pricing, null, 0n).total).toBe(usd('0.22'));
  });

  it('never charges more than reserve_max_charge, and reserves exactly that', () => {
    const price = priceUpstreamCost(pricing, usd('5'), usd('10'));
    expect(price.total).toBe(usd('1'));
    expect(price.base + price.markup + price.fee).toBe(usd('1'));
    expect(reserveFor(pricing, price)).toBe(usd('1'));
    expect(reserveFor(terms(), { base: 5n, markup: 0n, fee: 0n, total: 5n, minimumApplied: false })).toBe(5n);
  });

  it('keeps the fee at its share of a capped total: the publisher is not paid less to pay the fee on the uncapped cost', () => {
    const capped = priceUpstreamCost(terms({ reserveMaxCharge: usd('1.1') }), usd('5'), usd('10'));
    expect(capped).toMatchObject({ total: usd('1.1'), fee: usd('0.1'), base: usd('1'), markup: 0n });
    const withMarkup = priceUpstreamCost(pricing, usd('5'), usd('10'));
    expect(withMarkup.fee).toBe(divideUp(usd('1') * 10n, 110n));
    expect(withMarkup.base + withMarkup.markup).toBe(usd('1') - withMarkup.fee);
  });

  it('never charges more than was held for the call, with the fee at its share', () => {
    const price = priceUpstreamCost(terms(), usd('5'), usd('25'), usd('0.5'));
    expect(price).toMatchObject({ total: usd('0.5'), fee: usd('0.1'), base: usd('0.4') });
    expect(priceUpstreamCost(terms(), usd('0.2'), 0n, usd('0.5')).total).toBe(usd('0.2'));
  });
});

describe('matchEndpoint', () => {
  const endpoints = [
    { method: 'GET', path: '/users/{id}' },
    { method: 'GET', path: '/users/me' },
    { method: 'GET', path: '/v1/quotes/{symbol}.json' },
    { method: 'POST', path: '/' },
  ];

  it('matches placeholders one segment each and returns their values', () => {
    expect(matchEndpoint(endpoints, 'get', '/users/42')).toEqual({ endpoint: endpoints[0], params: { id: '42' } });
    expect(matchEndpoint(endpoints, 'GET', '/v1/quotes/AAPL.json?x=1')?.params).toEqual({ symbol: 'AAPL' });
  });

  it('prefers a literal path over a template', () => {
    expect(matchEndpoint(endpoints, 'GET', '/users/me')?.endpoint).toBe(endpoints[1]);
  });

  it('requires the same method and segment count', () => {
    expect(matchEndpoint(endpoints, 'DELETE', '/users/42')).toBeNull();
    expect(matchEndpoint(endpoints, 'GET', '/users/42/posts')).toBeNull();
    expect(matchEndpoint(endpoints, 'POST', '/')?.endpoint).toBe(endpoints[3]);
    expect(matchEndpoint(null, 'GET', '/')).toBeNull();
  });

  it('decodes placeholder values, and a segment that is not UTF-8 keeps its other escapes', () => {
    expect(matchEndpoint(endpoints, 'GET', '/users/a%20b')?.params).toEqual({ id: 'a b' });
    expect(matchEndpoint(endpoints, 'GET', '/users/caf%E9%20x')?.params).toEqual({ id: 'caf%E9 x' });
  });

  it('compares literal segments decoded, so either spelling reaches the same endpoint', () => {
    expect(matchEndpoint(endpoints, 'GET', '/users/%6De')?.endpoint).toBe(endpoints[1]);
    const encodedTemplate = [{ method: 'GET', path: '/files/report%20final' }];
    expect(matchEndpoint(encodedTemplate, 'GET', '/files/report%20final')?.endpoint).toBe(encodedTemplate[0]);
    expect(matchEndpoint(encodedTemplate, 'GET', '/files/report final')?.endpoint).toBe(encodedTemplate[0]);
    const mixed = [{ method: 'GET', path: '/files/report%20{id}.pdf' }];
    expect(matchEndpoint(mixed, 'GET', '/files/report%20x.pdf')?.params).toEqual({ id: 'x' });
    expect(matchEndpoint(mixed, 'GET', '/files/report x.pdf')?.params).toEqual({ id: 'x' });
  });

  it('reads a literal segment with ;parameters as that segment, as servers that strip them do', () => {
    expect(matchEndpoint(endpoints, 'GET', '/users/me;jsessionid=1')?.endpoint).toBe(endpoints[1]);
    expect(matchEndpoint(endpoints, 'GET', '/users/mex;a=1')?.endpoint).toBe(endpoints[0]);
    expect(matchEndpoint(endpoints, 'POST', '/%2F')).toBeNull();
  });

  it('finds a protected endpoint whatever the letter case, and only a protected one', () => {
    const guarded = [
      { method: 'DELETE', path: '/Admin/{id}', isProtected: true },
      { method: 'GET', path: '/public', isProtected: false },
    ];
    expect(matchIgnoringCase(guarded, 'DELETE', '/aDMIN/7').protectedEndpoint).toBe(guarded[0]);
    expect(matchIgnoringCase(guarded, 'GET', '/ADMIN/7').protectedEndpoint).toBeNull();
    expect(matchIgnoringCase(guarded, 'GET', '/PUBLIC').protectedEndpoint).toBeNull();
    // Decoded before it is folded: %41 is A.
    expect(matchIgnoringCase(guarded, 'DELETE', '/%41dmin/7').protectedEndpoint).toBe(guarded[0]);
    expect(matchIgnoringCase([{ method: 'GET', path: '/%41dmin', isProtected: true }], 'GET', '/ADMIN').protectedEndpoint).not.toBeNull();
    // Letters that case-insensitive servers take for ASCII ones: İ, ı, ſ and the Kelvin sign.
    const item = ['/item', '/status', '/key'].map((path) => ({ method: 'GET', path, isProtected: true }));
    expect(['/%C4%B0tem', '/%C4%B1tem', '/%C5%BFtatus', '/%E2%84%AAey'].map((path) => matchIgnoringCase(item, 'GET', path).protectedEndpoint?.path)).toEqual(['/item', '/item', '/status', '/key']);
    // `;params` after a segment that mixes text and a placeholder.
    const report = [{ method: 'GET', path: '/report-{id}.json', isProtected: true }];
    expect(matchIgnoringCase(report, 'GET', '/report-1.json;x=1').protectedEndpoint).toBe(report[0]);
  });

  it('does not let a protected template shadow a public literal, while a protected literal beats a public template', () => {
    const users = [
      { method: 'GET', path: '/users/me', isProtected: false },
      { method: 'GET', path: '/users/{id}', isProtected: true },
      { method: 'GET', path: '/files/{name}', isProtected: false },
      { method: 'GET', path: '/files/secret', isProtected: true },
    ];
    expect(['/users/me', '/users/ME', '/users/42', '/files/a', '/files/SECRET'].map((path) => matchIgnoringCase(users, 'GET', path).protectedEndpoint?.path ?? null)).toEqual([
      null, null, '/users/{id}', null, '/files/secret',
    ]);
  });

  it('prices a path that matches an endpoint only in another letter case at the higher of the two prices', () => {
    const listed = [
      { method: 'GET', path: '/premium/{id}', isProtected: false, price: usd('0.05') },
      { method: 'GET', path: '/cheap', isProtected: false, price: usd('0.001') },
      { method: 'GET', path: '/reports/{name}', isProtected: false, price: usd('0.01') },
      { method: 'GET', path: '/reports/premium', isProtected: false, price: usd('1') },
    ] as PublisherEndpoint[];
    const pricing = terms({ pricePerCall: usd('0.01') });
    const totalAt = (path: string) =>
      priceOfCall(pricing, matchEndpoint(listed, 'GET', path)?.endpoint ?? null, matchIgnoringCase(listed, 'GET', path).endpoint, { method: 'GET' }, 0n).total;
    expect([totalAt('/premium/1'), totalAt('/Premium/1'), totalAt('/PREMIUM/1'), totalAt('/%50remium/1')]).toEqual([usd('0.05'), usd('0.05'), usd('0.05'), usd('0.05')]);
    expect([totalAt('/cheap'), totalAt('/CHEAP'), totalAt('/elsewhere')]).toEqual([usd('0.001'), usd('0.01'), usd('0.01')]);
    // The exact spelling matches the cheap template, but an upstream ignoring case serves the premium report.
    expect([totalAt('/reports/q3'), totalAt('/reports/PREMIUM'), totalAt('/reports/%50remium')]).toEqual([usd('0.01'), usd('1'), usd('1')]);
  });

  it('matches HEAD as the GET of the same path unless HEAD is documented', () => {
    expect(matchEndpoint(endpoints, 'HEAD', '/users/me')?.endpoint).toBe(endpoints[1]);
    const withHead = [...endpoints, { method: 'HEAD', path: '/users/{id}' }];
    expect(matchEndpoint(withHead, 'HEAD', '/users/me')?.endpoint).toBe(withHead[4]);
    expect(matchEndpoint(endpoints, 'HEAD', '/')).toBeNull();
  });

  it('knows a well-formed template from a broken one', () => {
    expect(isWellFormedPathTemplate('/a/{id}/b')).toBe(true);
    expect(isWellFormedPathTemplate('/')).toBe(true);
    for (const bad of ['a/b', '/a/{id', '/a/{}', '/a/{1x}', '/a b', '/a/}'] ) expect(isWellFormedPathTemplate(bad)).toBe(false);
  });
});
