import { describe, expect, it } from 'vitest';
import { concurrentChange, storeBusy } from './errors.js';
import { isStoreUnavailable } from './index.js';

const withCode = (code: string, message = 'x'): Error =>
  Object.assign(new Error(message), { code });

describe('isStoreUnavailable', () => {
  it('holds for a store that cannot take the call for now', () => {
    for (const err of [
      storeBusy(),
      // A busy store's error thrown on the store's thread arrives with its name and code only.
      { name: 'ServiceError', code: 'store_busy', message: 'busy' },
      withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
      withCode('57P01', 'terminating connection due to administrator command'),
      withCode('57P03', 'the database system is starting up'),
      withCode('08006', 'connection failure'),
      withCode('53300', 'sorry, too many clients already'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      withCode('55000', 'database "reviews" is not currently accepting connections'),
    ]) {
      expect(isStoreUnavailable(err), JSON.stringify(err)).toBe(true);
    }
  });

  it('does not hold for faults of a request, of the data or of the code', () => {
    for (const err of [
      concurrentChange(),
      withCode('23505', 'duplicate key value violates unique constraint'),
      withCode('42P01', 'relation "reviews" does not exist'),
      withCode('SQLITE_CORRUPT', 'database disk image is malformed'),
      new TypeError('Cannot read properties of undefined'),
      null,
      'a string',
    ]) {
      expect(isStoreUnavailable(err), String(err)).toBe(false);
    }
  });
});
