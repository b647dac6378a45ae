import { describe, expect, it } from '@jest/globals';
import { databaseUnavailableError } from '../../shared/db/database-unavailable.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('a database that does not answer', () => {
  it.each([
    ['the pool handing out no connection in time', new Error('timeout exceeded when trying to connect')],
    ['the server gone mid-query', new Error('Connection terminated unexpectedly')],
    ['nothing listening', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['an administrator shutting it down, wrapped by the ORM', new Error('driver failed', { cause: withCode('terminating connection', '57P01') })],
    ['too many connections', withCode('sorry, too many clients already', '53300')],
  ])('is 503 database_unavailable with Retry-After 1: %s', (_label, error) => {
    expect(databaseUnavailableError(error)).toMatchObject({ status: 503, code: 'database_unavailable', details: { retryAfterSeconds: 1 } });
  });

  it.each([
    ['a unique violation', withCode('duplicate key value', '23505')],
    ['a deadlock', withCode('deadlock detected', '40P01')],
    ['a programming error', new TypeError('x is undefined')],
    ['something that is no Error', 'timeout exceeded when trying to connect'],
  ])('is no such thing for %s', (_label, error) => {
    expect(databaseUnavailableError(error)).toBeUndefined();
  });
});
