import { describe, expect, it } from '@jest/globals';
import { canonicalJson } from '../../shared/canonical-json.js';

/** Federation's history hashes and billing's idempotency checks compare these bytes: they must not drift. */
describe('canonical JSON', () => {
  it('prints the same value the same way whatever its key order, at every level', () => {
    const one = canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: 'x' } });
    const two = canonicalJson({ a: { c: 'x', d: [3, { y: 2, z: 1 }] }, b: 1 });
    expect(one).toBe('{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}');
    expect(two).toBe(one);
  });

  it('writes bigints as digits, dates as ISO times, leaves out undefined keys and prints nothing as null', () => {
    expect(canonicalJson({ amount: 12345678901234567890n, at: new Date('2026-11-25T00:00:00Z'), gone: undefined, list: [undefined] })).toBe(
      '{"amount":"12345678901234567890","at":"2026-11-25T00:00:00.000Z","list":[null]}',
    );
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson('a\u0000"b')).toBe('"a\\u0000\\"b"');
  });
});
