import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

const MAIN = join(import.meta.dirname, '../../dist/src/main.js');

describe('configuration from the environment', () => {
  it('has documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      baseUrl: 'http://localhost:3000',
      databaseUrl: 'sqlite:./data/reviews.db',
      sampleData: true,
      logLevel: 'info',
    });
    expect(loadConfig({ PORT: '8080' }).baseUrl).toBe('http://localhost:8080');
    expect(loadConfig({ BASE_URL: 'https://reviews.example.com/' }).baseUrl).toBe(
      'https://reviews.example.com',
    );
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['BASE_URL', 'ftp://x.example'],
    ['BASE_URL', 'not a url'],
    ['BASE_URL', 'https://x.example/?q=1'],
    ['DATABASE_URL', 'mysql://db'],
    ['SAMPLE_DATA', 'maybe'],
    ['LOG_LEVEL', 'loud'],
    ['DATA_POLL_MS', '0'],
  ])('rejects %s=%s naming the variable', (key, value) => {
    expect(() => loadConfig({ [key]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [key]: value })).toThrow(new RegExp(`^invalid ${key}=`));
  });

  it('stops start-up with one clear line and a non-zero exit code', () => {
    expect(existsSync(MAIN), 'run `npm run build` first').toBe(true);
    const run = spawnSync(process.execPath, [MAIN], {
      env: { ...process.env, PORT: 'eighty' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).not.toBe(0);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/PORT/);
  });
});
