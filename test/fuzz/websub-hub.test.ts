import { createServer, type Server, type Socket } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import { testBusiness } from '../helpers/fixtures.js';
import { startTestService, TEST_BASE_URL, type TestService } from '../helpers/service.js';
import { anyText, canary, longText, mutated, nearly } from './helpers/arbitraries.js';
import {
  expectHealthy,
  expectJsonError,
  expectNoEcho,
  publishedFingerprint,
} from './helpers/checks.js';
import { fuzzReviews } from './helpers/data.js';
import { wire } from './helpers/raw-http.js';
import { checkBoundary, noteOutcome, timeoutOf } from './helpers/settings.js';

/** Runs in `npm run test:slow` (fixed seed); `npm run fuzz` runs FUZZ_RUNS. */
const RUNS = 120;
const MAX_FORM_BYTES = 8 * 1024;
const TOPICS = ['/feed.xml', '/api/feed.json', '/reviews.json'].map((p) => `${TEST_BASE_URL}${p}`);
const FIELDS = ['hub.mode', 'hub.topic', 'hub.callback', 'hub.secret', 'hub.lease_seconds'];

let svc: TestService;
let store: Store;
let fingerprint: string;
let dataVersion: number;
/**
 * Where accepted callbacks point: a server on loopback (IPv4 and IPv6) that accepts connections
 * and never answers, so every verification the fuzz queues stays pending and the hub's store
 * can be compared exactly (one intent more for each 202, nothing for each refusal).
 */
let tarpit: { port: number; close(): Promise<void> };

async function startTarpit(): Promise<typeof tarpit> {
  const sockets = new Set<Socket>();
  const hold = (s: Socket) => {
    sockets.add(s);
    s.on('error', () => undefined);
    s.on('close', () => sockets.delete(s));
  };
  const v4: Server = createServer(hold);
  await new Promise<void>((r) => v4.listen(0, '127.0.0.1', r));
  const port = (v4.address() as { port: number }).port;
  const v6: Server = createServer(hold);
  await new Promise<void>((r, j) => v6.once('error', j).listen(port, '::1', r));
  return {
    port,
    async close() {
      for (const s of sockets) s.destroy();
      await Promise.all([v4, v6].map((srv) => new Promise((r) => srv.close(r))));
    },
  };
}

beforeAll(async () => {
  tarpit = await startTarpit();
  svc = await startTestService({
    business: testBusiness(),
    reviews: fuzzReviews(),
    env: {
      WEBSUB_CALLBACK_ALLOW_CIDRS: '127.0.0.0/8,::1/128',
      WEBSUB_RATE_LIMIT_PER_MIN: '1000000',
      WEBSUB_TIMEOUT_MS: '600000',
      WEBSUB_MAX_SUBSCRIPTIONS_PER_HOST: '10000000',
    },
  });
  store = openStore(svc.databaseUrl);
  fingerprint = await publishedFingerprint(store);
  dataVersion = ((await (await fetch(`${svc.url}/healthz`)).json()) as { dataVersion: number })
    .dataVersion;
});
afterAll(async () => {
  await store?.close();
  await svc?.stop();
  await tarpit?.close();
});

/**
 * Callback hosts with the verdict the address policy must give (WEBSUB_CALLBACK_ALLOW_CIDRS
 * opens loopback). A fixed list, never mutated: a typo of 127.0.0.1 can be a public address,
 * and the fuzz must not send verifications to strangers.
 */
const HOSTS: readonly [host: string, allowed: boolean][] = [
  ['127.0.0.1', true],
  ['[::1]', true],
  ['localhost', true],
  ['0x7f.1', true],
  ['2130706433', true],
  ['0177.0.0.1', true],
  ['127.0.0.1.', true],
  ['%31%32%37.0.0.1', true],
  ['１２７．０．０．１', true],
  ['[::ffff:127.0.0.1]', true],
  ['10.0.0.1', false],
  ['192.168.1.1', false],
  ['172.16.0.1', false],
  ['169.254.169.254', false],
  ['100.64.0.1', false],
  ['0.0.0.0', false],
  ['224.0.0.1', false],
  ['255.255.255.255', false],
  ['192.0.2.1', false],
  ['[::ffff:10.0.0.1]', false],
  ['[fe80::1]', false],
  ['[fc00::1]', false],
  ['[2001:db8::1]', false],
  ['[64:ff9b::a00:1]', false],
  ['nonexistent.invalid', false],
];

const callback = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .record({
        scheme: fc.oneof(
          { weight: 8, arbitrary: fc.constant('https://') },
          {
            weight: 1,
            arbitrary: fc.constantFrom('http://', 'HTTPS://', 'ftp://', 'https:/', '//', 'wss://'),
          },
        ),
        userinfo: fc.oneof(
          { weight: 10, arbitrary: fc.constant('') },
          { weight: 1, arbitrary: fc.constantFrom('user@', 'user:pw@', ':@') },
        ),
        host: fc.nat({ max: HOSTS.length - 1 }),
        path: fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom('/cb', '/websub/callback?id=42&x=%20y', '/') },
          { weight: 2, arbitrary: anyText(30).map((s) => `/${s}`) },
          { weight: 1, arbitrary: longText(2_000, 2_100).map((s) => `/${s}`) },
          {
            weight: 1,
            arbitrary: fc.constantFrom('/#frag', '/cb?x=1#', '/%23', '/cb?hub.challenge=x'),
          },
        ),
      })
      .map((c) => `${c.scheme}${c.userinfo}${HOSTS[c.host]![0]}:${tarpit.port}${c.path}`),
  },
  { weight: 1, arbitrary: anyText(40) },
);

const formField = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .constant('hub.mode')
      .chain((k) =>
        nearly(fc.constantFrom('subscribe', 'unsubscribe', 'publish'), 20, 8).map((v) => [k, v]),
      ),
  },
  {
    weight: 4,
    arbitrary: fc
      .constant('hub.topic')
      .chain((k) => nearly(fc.constantFrom(...TOPICS), 40, 8).map((v) => [k, v])),
  },
  { weight: 4, arbitrary: callback.map((v) => ['hub.callback', v]) },
  {
    weight: 2,
    arbitrary: fc
      .oneof(
        nearly(fc.constant('s3cr3t')),
        longText(195, 205),
        fc.constantFrom('é'.repeat(99), 'é'.repeat(100), ''),
      )
      .map((v) => ['hub.secret', v]),
  },
  {
    weight: 2,
    arbitrary: nearly(
      fc.constantFrom('3600', '1', '86400', '999999999999999', '9999999999999999', '-5'),
      20,
      6,
    ).map((v) => ['hub.lease_seconds', v]),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(
      nearly(fc.constantFrom(...FIELDS, 'hub.challenge', 'hub.reason')),
      anyText(),
    ),
  },
) as fc.Arbitrary<[string, string]>;

/** A form that names mode, topic and callback once each (mostly), plus optional fields. */
const formPairs = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(
        nearly(fc.constantFrom('subscribe', 'unsubscribe'), 20, 12),
        fc.oneof(
          { weight: 8, arbitrary: fc.constantFrom(...TOPICS) },
          { weight: 1, arbitrary: fc.constantFrom(...TOPICS).chain(mutated) },
        ),
        callback,
        fc.oneof(
          { weight: 6, arbitrary: fc.constant([]) },
          {
            weight: 3,
            arbitrary: fc
              .tuple(
                fc.constantFrom('s3cr3t', 'é'.repeat(99)),
                fc.constantFrom('3600', '60', '864000000'),
              )
              .map(([secret, lease]): [string, string][] => [
                ['hub.secret', secret],
                ['hub.lease_seconds', lease],
                ['ignored', 'x'],
              ]),
          },
          { weight: 2, arbitrary: fc.array(formField, { maxLength: 2 }) },
        ),
      )
      .map(([mode, topic, cb, rest]): [string, string][] => [
        ['hub.mode', mode],
        ['hub.topic', topic],
        ['hub.callback', cb],
        ...rest,
      ]),
  },
  { weight: 1, arbitrary: fc.array(formField, { maxLength: 6 }) },
);

const hubRequest = fc.record({
  method: fc.oneof(
    { weight: 20, arbitrary: fc.constant('POST') },
    { weight: 1, arbitrary: fc.constantFrom('GET', 'PUT') },
  ),
  pairs: formPairs,
  encoding: fc.oneof(
    { weight: 8, arbitrary: fc.constant('form' as const) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'raw-utf8' as const,
        'invalid-utf8' as const,
        'oversized' as const,
      ),
    },
  ),
  contentType: fc.oneof(
    { weight: 20, arbitrary: fc.constant('application/x-www-form-urlencoded') },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        'application/x-www-form-urlencoded; charset=utf-8',
        'Application/X-WWW-Form-Urlencoded; charset="UTF-8"',
        'application/x-www-form-urlencoded; charset=latin1',
        'text/plain',
        'application/json',
        'multipart/form-data; boundary=x',
        '',
      ),
    },
    { weight: 1, arbitrary: fc.constant(undefined) },
  ),
  canary: fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: canary() }),
  /** A hub field appended with percent-encoded bytes that are not UTF-8 (or valid ones). */
  escaped: fc.oneof(
    { weight: 6, arbitrary: fc.constant(null) },
    {
      weight: 1,
      arbitrary: fc.tuple(
        fc.constantFrom(...FIELDS),
        fc.constantFrom(
          '%FF%FE',
          'ab%C3',
          '%ED%A0%80',
          '%C0%AF',
          'x%E2%82',
          '%F4%90%80%80',
          '%C3%A9',
        ),
      ),
    },
  ),
});

type HubRequest = typeof hubRequest extends fc.Arbitrary<infer T> ? T : never;

function bodyOf(r: HubRequest): Buffer {
  const pairs = r.canary ? [...r.pairs, ['hub.secret', r.canary] as [string, string]] : r.pairs;
  // URLSearchParams writes lone surrogates as U+FFFD, as any UTF-8 encoder does.
  let form = new URLSearchParams(pairs).toString();
  if (r.escaped) form = `${form}&${r.escaped[0]}=${r.escaped[1]}`;
  switch (r.encoding) {
    case 'form':
      return Buffer.from(form);
    case 'raw-utf8':
      return Buffer.from(pairs.map(([k, v]) => `${k}=${v}`).join('&'));
    case 'invalid-utf8':
      return Buffer.concat([Buffer.from(form), Buffer.from([0x26, 0x78, 0x3d, 0xff, 0xfe])]);
    case 'oversized':
      return Buffer.from(`${form}&pad=${'x'.repeat(MAX_FORM_BYTES)}`);
  }
}

/**
 * A form name or value as the rules read it: `+` a space, `%XX` a byte (a `%` without two hex
 * digits is itself), then strict UTF-8; null when the bytes are not UTF-8.
 */
function strictDecode(text: string): string | null {
  const bytes: number[] = [];
  for (let i = 0; i < text.length;) {
    if (text[i] === '%' && /^[0-9a-fA-F]{2}$/.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 3;
      continue;
    }
    const ch = String.fromCodePoint(text.codePointAt(i)!);
    bytes.push(...Buffer.from(ch === '+' ? ' ' : ch));
    i += ch.length;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes));
  } catch {
    return null;
  }
}

/** What the documented rules say of a form the hub reads (content type and size passed). */
function judgeForm(text: string): { bad: Set<string>; host?: boolean } {
  const bad = new Set<string>();
  const form = Object.create(null) as Record<string, string>;
  const seen = new Set<string>();
  const notUtf8 = new Set<string>();
  // A field given twice is refused at once, the first repeated in body order; fields whose
  // escapes are not UTF-8 are refused together, before any other rule.
  for (const pair of text.split('&').filter(Boolean)) {
    const eq = pair.indexOf('=');
    const key = strictDecode(eq === -1 ? pair : pair.slice(0, eq));
    if (key === null || !FIELDS.includes(key)) continue;
    if (seen.has(key)) return { bad: new Set([key]) };
    seen.add(key);
    const value = strictDecode(eq === -1 ? '' : pair.slice(eq + 1));
    if (value === null) notUtf8.add(key);
    else form[key] = value;
  }
  if (notUtf8.size > 0) return { bad: notUtf8 };
  if (!['subscribe', 'unsubscribe'].includes(form['hub.mode']!)) bad.add('hub.mode');
  if (!TOPICS.includes(form['hub.topic']!)) bad.add('hub.topic');
  const cb = form['hub.callback'];
  let url: URL | null = null;
  try {
    // Characters are code points (an emoji is one), as zod counts them.
    url = cb !== undefined && [...cb].length <= 2048 ? new URL(cb) : null;
  } catch {
    url = null;
  }
  if (!url || url.protocol !== 'https:' || url.username || url.password || cb!.includes('#'))
    bad.add('hub.callback');
  const secret = form['hub.secret'];
  if (secret !== undefined && (secret.length === 0 || Buffer.byteLength(secret) >= 200))
    bad.add('hub.secret');
  const lease = form['hub.lease_seconds'];
  if (
    bad.size === 0 &&
    form['hub.mode'] === 'subscribe' &&
    lease !== undefined &&
    !/^\d{1,15}$/.test(lease)
  )
    bad.add('hub.lease_seconds');
  if (bad.size > 0 || !url) return { bad };
  const hostAllowed = HOSTS.find(([h]) => new URL(`https://${h}/`).hostname === url.hostname)?.[1];
  return { bad, host: hostAllowed ?? false };
}

async function intents(): Promise<number> {
  return store.websub.countPendingIntents();
}

describe('fuzz: WebSub hub forms (POST /api/websub/hub)', () => {
  it(
    'never answers 5xx; refusals are the documented JSON 4xx (issues naming exactly the bad fields, percent-encoded bytes that are not UTF-8 included); a 202 queues exactly one verification and a refusal nothing',
    async () => {
      await checkBoundary(
        'WebSub hub forms',
        fc.asyncProperty(hubRequest, async (r) => {
          const before = {
            intents: await intents(),
            subscriptions: await store.websub.countSubscriptions(),
          };
          const body = bodyOf(r);
          const headers: [string, string][] =
            r.contentType === undefined ? [] : [['Content-Type', r.contentType]];
          const res = await wire(svc.url, {
            method: r.method,
            target: '/api/websub/hub',
            headers,
            body,
          });
          noteOutcome(res.status);
          expect(res.status, res.text).toBeLessThan(500);
          const after = {
            intents: await intents(),
            subscriptions: await store.websub.countSubscriptions(),
          };
          expect(after.subscriptions, 'no verification completes: nothing is subscribed').toBe(
            before.subscriptions,
          );
          expect(
            after.intents - before.intents,
            `intents queued by ${res.status} ${res.text}`,
          ).toBe(res.status === 202 ? 1 : 0);
          if (r.method !== 'POST') {
            expect(res.status).toBe(405);
            expectJsonError(res);
            return;
          }
          expect([202, 400, 403, 413, 415]).toContain(res.status);
          if (res.status === 202) {
            expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
            expect(res.text.endsWith('\n') && res.text.trim().length > 0).toBe(true);
          } else {
            expectJsonError(res);
          }
          if (r.canary) expectNoEcho(res.text, [r.canary]);
          const type = (r.contentType ?? '').split(';').map((p) => p.trim().toLowerCase());
          const charset = type
            .slice(1)
            .find((p) => p.startsWith('charset='))
            ?.slice(8)
            .replace(/"/g, '');
          if (
            type[0] !== 'application/x-www-form-urlencoded' ||
            (charset !== undefined && charset !== 'utf-8')
          ) {
            expect(res.status).toBe(415);
            expect(res.headers.accept).toBe('application/x-www-form-urlencoded');
            return;
          }
          if (body.length > MAX_FORM_BYTES || r.encoding === 'invalid-utf8') {
            expect(res.status).toBe(body.length > MAX_FORM_BYTES ? 413 : 400);
            return;
          }
          const verdict = judgeForm(body.toString('utf8'));
          if (verdict.bad.size > 0) {
            expect(res.status).toBe(400);
            const { issues } = JSON.parse(res.text) as { issues: { path: string[] }[] };
            const named = new Set(issues.map((i) => i.path[0]));
            expect([...named].sort()).toEqual([...verdict.bad].sort());
          } else {
            expect(res.status, `callback host allowed: ${verdict.host}`).toBe(
              verdict.host ? 202 : 403,
            );
          }
          await expectHealthy(svc.url, dataVersion);
          expect(await publishedFingerprint(store)).toBe(fingerprint);
        }),
        RUNS,
      );
    },
    timeoutOf(60_000),
  );
});
