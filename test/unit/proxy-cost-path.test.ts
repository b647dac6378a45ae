import { describe, expect, it } from '@jest/globals';
import { decimalToMicrosCeil, readUpstreamCost } from '../../subgraphs/marketplace/proxy/cost-path.js';

describe('reading the upstream’s cost', () => {
  it.each([
    [{ usage: { cost: 0.0123 } }, 'usage.cost', 12300n],
    [{ usage: { cost: '0.5' } }, 'usage.cost', 500000n],
    [{ data: [{ billing: { total: 2 } }] }, 'data[0].billing.total', 2000000n],
    [{ usage: { cost: 1e-7 } }, 'usage.cost', 1n],
    [{ usage: { cost: 0 } }, 'usage.cost', 0n],
  ])('reads %j at %s', (document, path, micros) => expect(readUpstreamCost(document, path)).toBe(micros));

  it.each([
    [{ usage: {} }, 'usage.cost'],
    [{ usage: { cost: -1 } }, 'usage.cost'],
    [{ usage: { cost: 'free' } }, 'usage.cost'],
    [{ usage: { cost: null } }, 'usage.cost'],
    ['not an object', 'usage.cost'],
    [{ usage: [1] }, 'usage.cost'],
  ])('finds no cost in %j', (document, path) => expect(readUpstreamCost(document, path)).toBeNull());

  it('converts decimals exactly and rounds up to the micro-dollar', () => {
    expect(decimalToMicrosCeil('0.1')).toBe(100000n);
    expect(decimalToMicrosCeil('0.0000011')).toBe(2n);
    expect(decimalToMicrosCeil('1.5e-3')).toBe(1500n);
    expect(decimalToMicrosCeil('12')).toBe(12000000n);
    expect(decimalToMicrosCeil('1e2')).toBe(100000000n);
  });
});
