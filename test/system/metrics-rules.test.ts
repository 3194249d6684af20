import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The example Prometheus files in deploy/prometheus (issue 31): the alert rules pass
 * `promtool check rules`, their unit tests pass `promtool test rules` (each alert fires when it
 * should and stays quiet when it should not), and the scrape configuration is valid.
 */
const DIR = join(import.meta.dirname, '../../deploy/prometheus');

function promtool(...args: string[]) {
  const r = spawnSync('promtool', args, { cwd: DIR, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('deploy/prometheus', () => {
  it('alerts.yml passes promtool check rules, with the six alerts', () => {
    const r = promtool('check', 'rules', 'alerts.yml');
    expect(r.status, r.out).toBe(0);
    expect(r.out).toContain('SUCCESS: 6 rules found');
  });

  it('alerts.test.yml proves each alert fires and stays quiet (promtool test rules)', () => {
    const r = promtool('test', 'rules', 'alerts.test.yml');
    expect(r.status, r.out).toBe(0);
    expect(r.out).toContain('SUCCESS');
  });

  it('prometheus.yml, the example scrape configuration, is valid', () => {
    const r = promtool('check', 'config', 'prometheus.yml');
    expect(r.status, r.out).toBe(0);
  });
});
