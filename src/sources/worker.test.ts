import { describe, expect, it } from 'vitest';
import { syncDatabaseUrl } from './worker.js';

describe('syncDatabaseUrl (the sync thread’s store)', () => {
  it('gives the thread a pool of 2 on PostgreSQL unless the URL names its size', () => {
    expect(syncDatabaseUrl('postgres://u:p@db.example:5432/reviews?sslmode=require')).toBe(
      'postgres://u:p@db.example:5432/reviews?sslmode=require&pool_size=2',
    );
    expect(syncDatabaseUrl('postgresql://db.example/reviews?pool_size=5')).toBe(
      'postgresql://db.example/reviews?pool_size=5',
    );
    expect(syncDatabaseUrl('sqlite:./data/reviews.db')).toBe('sqlite:./data/reviews.db');
  });
});
