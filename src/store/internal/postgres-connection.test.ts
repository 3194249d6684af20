import { describe, expect, it } from 'vitest';
import { DEFAULT_POOL_SIZE, maskPostgresUrl, parsePostgresUrl } from './postgres-connection.js';

describe('a PostgreSQL DATABASE_URL', () => {
  it('gives the driver the URL without the pool size, and the pool size apart', () => {
    expect(
      parsePostgresUrl('postgres://reviews:pw@db.example:5432/reviews?pool_size=4&sslmode=require'),
    ).toEqual({
      connectionString: 'postgres://reviews:pw@db.example:5432/reviews?sslmode=require',
      poolSize: 4,
      location: 'postgres://reviews:***@db.example:5432/reviews?pool_size=4&sslmode=require',
    });
    expect(parsePostgresUrl('postgresql://db.example/reviews').poolSize).toBe(DEFAULT_POOL_SIZE);
  });

  it('keeps a URL without a host (a socket folder in the parameters) as libpq writes it', () => {
    const url = 'postgres://reviews@/reviews?host=/var/run/postgresql';
    expect(parsePostgresUrl(url).connectionString).toBe(url);
    expect(parsePostgresUrl(`${url}&pool_size=2`).connectionString).toBe(url);
  });

  it('masks every password it holds', () => {
    expect(
      maskPostgresUrl('postgres://u:p%40ss@h/db?password=x&sslpassword=y&application_name=a'),
    ).toBe('postgres://u:***@h/db?password=***&sslpassword=***&application_name=a');
    expect(maskPostgresUrl('postgres://u@h/db')).toBe('postgres://u@h/db');
    expect(maskPostgresUrl('postgresql://u:p@h:99999/db')).toBe('postgresql://***');
  });
});
