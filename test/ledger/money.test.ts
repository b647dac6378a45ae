import { describe, expect, it } from '@jest/globals';
import { centsToMicros, formatMoney, microsToCents, parseMoney } from '../../shared/money.js';

describe('money at the edge', () => {
  it.each([
    ['0.10', 100_000n],
    ['1', 1_000_000n],
    ['1.5', 1_500_000n],
    ['0.000001', 1n],
    ['100.123456', 100_123_456n],
    [' 2.00 ', 2_000_000n],
    [3, 3_000_000n],
  ])('parses %p as %p micro-dollars', (input, micros) => {
    expect(parseMoney(input)).toBe(micros);
  });

  it.each([['-1'], ['0.0000001'], ['1e3'], ['abc'], [''], ['1.'], ['.5'], ['0x10'], [1.5], [null], [undefined], [{}], ['1,5'], ['NaN'], ['Infinity']])(
    'refuses %p with 400 invalid_amount',
    (input) => {
      expect(() => parseMoney(input)).toThrow(expect.objectContaining({ status: 400, code: 'invalid_amount' }));
    },
  );

  it.each([
    [100_000n, '0.10'],
    [1_000_000n, '1.00'],
    [1_234n, '0.001234'],
    [1_500_000n, '1.50'],
    [0n, '0.00'],
    [-500_000n, '-0.50'],
    [123_456_789n, '123.456789'],
  ])('formats %p as %p', (micros, text) => {
    expect(formatMoney(micros)).toBe(text);
  });

  it('converts cents both ways and refuses fractions of a cent', () => {
    expect(centsToMicros(150)).toBe(1_500_000n);
    expect(microsToCents(1_500_000n)).toBe(150n);
    expect(() => microsToCents(1n)).toThrow(expect.objectContaining({ code: 'invalid_amount' }));
  });
});
