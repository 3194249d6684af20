import { describe, expect, it } from 'vitest';
import { concurrentChange, deadlineExceeded, storeBusy } from './errors.js';
import { storeErrorKind } from './index.js';

const withCode = (code: string, message = 'x'): Error =>
  Object.assign(new Error(message), { code });

/** The kinds the metrics count store faults by (`dealer_reviews_store_errors_total{kind}`). */
describe('storeErrorKind', () => {
  it('classifies each fault the store gives, also as it arrives from the store thread', () => {
    const cases: [unknown, string][] = [
      [storeBusy(), 'busy'],
      [{ name: 'ServiceError', code: 'store_busy', message: 'busy' }, 'busy'],
      [withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'), 'unreachable'],
      [withCode('57P01', 'terminating connection due to administrator command'), 'unreachable'],
      [concurrentChange(), 'conflict'],
      [{ name: 'ServiceError', code: 'concurrent_change', message: 'x' }, 'conflict'],
      [withCode('40001', 'could not serialize access'), 'conflict'],
      [deadlineExceeded(2000), 'deadline'],
      [withCode('23505', 'duplicate key value violates unique constraint'), 'other'],
      [new Error('SQLITE_FULL: database or disk is full'), 'other'],
      [null, 'other'],
    ];
    for (const [err, kind] of cases) expect(storeErrorKind(err), JSON.stringify(err)).toBe(kind);
  });
});
