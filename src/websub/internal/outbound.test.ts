import type { buildConnector } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { isServiceError } from '../../platform/errors.js';
import { createAddressPolicy } from './address-policy.js';
import { createOutbound, type Outbound } from './outbound.js';
import { CALLBACK_REFUSED, createHostVetter, type Resolver } from './target.js';

/** A connector that records what it was asked to open and opens nothing. */
function spyConnector() {
  const calls: buildConnector.Options[] = [];
  const connect: buildConnector.connector = (opts, callback) => {
    calls.push(opts);
    callback(new Error('spy: no connection is ever opened in this test'), null);
  };
  return { calls, connect };
}

/** The refusal of a callback the hub will not contact. */
const refused = (err: unknown): boolean => isServiceError(err, CALLBACK_REFUSED);

let outbound: Outbound | null = null;
afterEach(async () => {
  await outbound?.close();
  outbound = null;
});

function setup(resolver: Resolver, allow: string[] = []) {
  const spy = spyConnector();
  const vet = createHostVetter(createAddressPolicy(allow), resolver, 1_000);
  outbound = createOutbound({
    timeoutMs: 2_000,
    connectionsPerOrigin: 2,
    maxBodyBytes: 4096,
    vet,
    userAgent: 'test',
    connect: spy.connect,
  });
  return { spy, vet, outbound };
}

describe('the outgoing client', () => {
  it.each([
    'https://127.0.0.1/cb',
    'https://0x7f.1/cb',
    'https://2130706433/cb',
    'https://0177.0.0.1/cb',
    'https://127.1/cb',
    'https://[::1]/cb',
    'https://[::ffff:127.0.0.1]/cb',
    'https://169.254.169.254/latest/meta-data/',
    'https://[fd00:ec2::254]/',
    'https://10.0.0.1/cb',
  ])('refuses %s without opening a connection', async (url) => {
    const { spy, outbound } = setup(async () => ['93.184.216.34']);
    await expect(outbound.request(url, { method: 'GET' })).rejects.toSatisfy(refused);
    expect(spy.calls).toHaveLength(0);
  });

  it('refuses a name when any of its addresses is refused, or when it has none', async () => {
    const names: Record<string, string[]> = {
      'mixed.example': ['93.184.216.34', '10.0.0.1'],
      'none.example': [],
      'inside.example': ['::ffff:192.168.0.10'],
    };
    const { spy, outbound } = setup(async (h) => names[h] ?? []);
    for (const host of Object.keys(names))
      await expect(outbound.request(`https://${host}/cb`, { method: 'POST' })).rejects.toSatisfy(
        refused,
      );
    expect(spy.calls).toHaveLength(0);
  });

  it('refuses plain http outright', async () => {
    const { spy, outbound } = setup(async () => ['93.184.216.34']);
    await expect(outbound.request('http://public.example/cb', { method: 'GET' })).rejects.toSatisfy(
      refused,
    );
    expect(spy.calls).toHaveLength(0);
  });

  it('connects to the very address it checked, keeping the name for TLS and Host', async () => {
    const { spy, outbound } = setup(async () => ['93.184.216.34']);
    await expect(
      outbound.request('https://public.example:8443/cb?x=1', { method: 'GET' }),
    ).rejects.toThrow(/spy/);
    expect(spy.calls).toHaveLength(1);
    expect(spy.calls[0]).toMatchObject({
      hostname: '93.184.216.34',
      host: 'public.example:8443',
      protocol: 'https:',
    });
  });

  it('defeats DNS rebinding: a name that was public when subscribed and turns private is refused at connect time', async () => {
    const answers = [['93.184.216.34'], ['127.0.0.1']];
    const { spy, vet, outbound } = setup(async () => answers.shift() ?? ['127.0.0.1']);
    await expect(vet('rebind.example')).resolves.toBe('93.184.216.34'); // subscribe-time check
    await expect(
      outbound.request('https://rebind.example/cb', { method: 'POST' }),
    ).rejects.toSatisfy(refused);
    expect(spy.calls).toHaveLength(0);
  });

  it('reaches loopback only when the allow-list names it', async () => {
    const { spy, outbound } = setup(async () => ['127.0.0.1'], ['127.0.0.0/8']);
    await expect(outbound.request('https://localhost:9/cb', { method: 'GET' })).rejects.toThrow(
      /spy/,
    );
    expect(spy.calls.map((c) => c.hostname)).toEqual(['127.0.0.1']);
  });

  it('treats a name lookup that hangs as refused', async () => {
    const { spy, vet } = setup(() => new Promise<string[]>(() => undefined));
    await expect(vet('slow.example')).rejects.toThrow(/timed out/);
    expect(spy.calls).toHaveLength(0);
  });
});
