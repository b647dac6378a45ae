import { describe, expect, it, jest } from '@jest/globals';
import { KeptCopies } from '../../shared/copies.js';

/** The mechanism behind the paid path's publisher views, the catalogue's records and its cached pages. */
describe('kept copies', () => {
  it('keep a copy for their time, then forget it', () => {
    jest.useFakeTimers({ now: 1_000_000 });
    try {
      const copies = new KeptCopies<string>(5000, 10);
      copies.set('a', 'A', copies.generation);
      expect(copies.get('a')).toBe('A');
      jest.setSystemTime(1_000_000 + 5001);
      expect(copies.get('a')).toBeUndefined();
    } finally {
      jest.useRealTimers();
    }
  });

  it('never keep a copy read before a change, whichever finishes first', () => {
    const copies = new KeptCopies<string>(5000, 10);
    const readBefore = copies.generation;
    copies.forget('other');
    copies.set('a', 'stale', readBefore);
    expect(copies.get('a')).toBeUndefined();
    copies.set('b', 'B', copies.generation);
    copies.forgetAll();
    expect(copies.get('b')).toBeUndefined();
  });

  it('make room by dropping the oldest copy, and keep nothing when their time is 0', () => {
    const copies = new KeptCopies<number>(5000, 2);
    for (const key of ['a', 'b', 'c']) copies.set(key, 1, copies.generation);
    expect([copies.get('a'), copies.get('b'), copies.get('c')]).toEqual([undefined, 1, 1]);
    const off = new KeptCopies<number>(0, 2);
    off.set('a', 1, off.generation);
    expect(off.enabled).toBe(false);
    expect(off.get('a')).toBeUndefined();
  });
});
