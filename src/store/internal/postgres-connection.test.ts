import { describe, expect, it } from 'vitest';
import { DEFAULT_POOL_SIZE, maskPostgresUrl, parsePostgresUrl } from './postgres-connection.js';

describe('a PostgreSQL DATABASE_URL', () => {
  it('gives the driver the URL without the pool size, and the pool size apart', () => {
    expect(
      parsePostgresUrl('postgres://reviews:pw@db.example:5432/reviews?pool_size=4&sslmode=require'),
    ).toEqual({
      connectionString:
        'postgres://reviews:pw@db.example:5432/reviews?sslmode=require&uselibpqcompat=true',
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

  it("gives sslmode libpq's meaning, through the driver's uselibpqcompat", () => {
    for (const mode of ['disable', 'require', 'verify-full']) {
      expect(parsePostgresUrl(`postgres://h/db?sslmode=${mode}`).connectionString).toBe(
        `postgres://h/db?sslmode=${mode}&uselibpqcompat=true`,
      );
    }
    expect(
      parsePostgresUrl('postgres://h/db?sslmode=verify-ca&sslrootcert=/etc/ca.pem&pool_size=3')
        .connectionString,
    ).toBe('postgres://h/db?sslmode=verify-ca&sslrootcert=/etc/ca.pem&uselibpqcompat=true');
    expect(
      parsePostgresUrl('postgres://h/db?uselibpqcompat=true&sslmode=require').connectionString,
    ).toBe('postgres://h/db?uselibpqcompat=true&sslmode=require');
    // No sslmode: nothing added (and no TLS, as the driver does).
    expect(parsePostgresUrl('postgres://h/db').connectionString).toBe('postgres://h/db');
  });

  it('refuses the sslmodes the driver cannot honour, with a reason', () => {
    expect(() => parsePostgresUrl('postgres://h/db?sslmode=prefer')).toThrow(
      'sslmode=prefer is not supported (the driver cannot fall back to an unencrypted connection): use require or disable',
    );
    expect(() => parsePostgresUrl('postgres://h/db?sslmode=allow')).toThrow(/sslmode=allow/);
    expect(() => parsePostgresUrl('postgres://h/db?sslmode=no-verify')).toThrow(
      'sslmode must be disable, require, verify-ca or verify-full',
    );
    expect(() => parsePostgresUrl('postgres://h/db?sslmode=verify-ca')).toThrow(
      'sslmode=verify-ca needs sslrootcert=<file of the CA certificate>',
    );
    expect(() => parsePostgresUrl('postgres://h/db?uselibpqcompat=false')).toThrow(
      /uselibpqcompat may only be true/,
    );
  });

  it('refuses a parameter given twice, whichever it is', () => {
    expect(() => parsePostgresUrl('postgres://h/db?pool_size=2&pool_size=500')).toThrow(
      'the parameter pool_size is given more than once',
    );
    expect(() => parsePostgresUrl('postgres://h/db?sslmode=require&sslmode=disable')).toThrow(
      'the parameter sslmode is given more than once',
    );
  });

  it('masks every password it holds', () => {
    expect(
      maskPostgresUrl('postgres://u:p%40ss@h/db?password=x&sslpassword=y&application_name=a'),
    ).toBe('postgres://u:***@h/db?password=***&sslpassword=***&application_name=a');
    expect(maskPostgresUrl('postgres://u@h/db')).toBe('postgres://u@h/db');
    expect(maskPostgresUrl('postgresql://u:p@h:99999/db')).toBe('postgresql://***');
  });
});
