import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBusiness, testReviews } from '../helpers/fixtures.js';
import { http } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { TOPICS } from '../helpers/websub.js';

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({
    business: testBusiness(),
    reviews: testReviews(10),
    // Port 9 on loopback: verifications of accepted requests fail at once (nothing listens).
    env: { WEBSUB_CALLBACK_ALLOW_CIDRS: '127.0.0.0/8', WEBSUB_RATE_LIMIT_PER_MIN: '1000' },
  });
});
afterAll(() => svc.stop());

const CALLBACK = 'https://127.0.0.1:9/callback';
const FORM = 'application/x-www-form-urlencoded';

function post(body: string, contentType: string | null = FORM) {
  return http(`${svc.url}/api/websub/hub`, {
    method: 'POST',
    headers: contentType ? { 'Content-Type': contentType } : {},
    body,
  });
}

interface Refusal {
  error: string;
  message: string;
  issues?: { path: string[]; code: string; message: string }[];
}

/** The refusal's JSON body, checked for its type; `reasons`: `field: message` per issue. */
function refusal(res: Awaited<ReturnType<typeof post>>) {
  expect(res.headers['content-type']).toBe('application/json');
  const body = res.json<Refusal>();
  const reasons = (body.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`);
  return { ...body, reasons };
}

const form = (fields: Record<string, string>) =>
  new URLSearchParams({
    'hub.mode': 'subscribe',
    'hub.topic': TOPICS.atom,
    'hub.callback': CALLBACK,
    ...fields,
  }).toString();

describe('POST /api/websub/hub: the form', () => {
  it('accepts a valid request with 202 and a plain-text body, ignoring unknown parameters', async () => {
    const res = await post(`${form({})}&hub.verify=sync&foo=bar&hub.unknown=1&hub.unknown=2`);
    expect(res.status).toBe(202);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.text).toMatch(/^Accepted/);
    expect(
      (await post(form({ 'hub.topic': TOPICS.reviews }), `${FORM}; charset=UTF-8`)).status,
    ).toBe(202);
  });

  it.each([
    ['application/json', '{"hub.mode":"subscribe"}'],
    ['multipart/form-data; boundary=x', '--x--'],
    ['text/plain', 'hub.mode=subscribe'],
    [`${FORM}; charset=iso-8859-1`, 'hub.mode=subscribe'],
  ])('answers 415 to a %s body', async (type, body) => {
    const res = await post(body, type);
    expect(res.status).toBe(415);
    expect(refusal(res).error).toBe('unsupported_media_type');
  });

  it('answers 415 without a Content-Type', async () => {
    expect((await post(form({}), null)).status).toBe(415);
  });

  it('answers 413 to a body over the cap', async () => {
    const res = await post(form({ padding: 'x'.repeat(9000) }));
    expect(res.status).toBe(413);
  });

  it.each([
    [{ 'hub.mode': 'publish' }, 'hub.mode: must be subscribe or unsubscribe'],
    [{ 'hub.mode': '' }, 'hub.mode: must be subscribe or unsubscribe'],
    [{ 'hub.topic': `${TOPICS.atom}?x=1` }, 'hub.topic: must be one of the topic URLs'],
    [{ 'hub.topic': 'https://reviews.example.com/insights.json' }, 'hub.topic: must be one of'],
    [{ 'hub.topic': 'http://reviews.example.com/feed.xml' }, 'hub.topic: must be one of'],
    [{ 'hub.callback': 'not a url' }, 'hub.callback: must be an absolute https URL'],
    [{ 'hub.callback': '/relative' }, 'hub.callback: must be an absolute https URL'],
    [{ 'hub.callback': 'ftp://127.0.0.1/x' }, 'hub.callback: must be an absolute https URL'],
    [{ 'hub.callback': 'http://127.0.0.1/x' }, 'hub.callback: must use https'],
    [{ 'hub.callback': 'https://u:p@127.0.0.1/x' }, 'hub.callback: must not contain a user name'],
    [{ 'hub.callback': 'https://127.0.0.1/x#frag' }, 'hub.callback: must not contain a fragment'],
    [
      { 'hub.callback': `https://127.0.0.1/${'a'.repeat(2031)}` },
      'hub.callback: must be at most 2048 characters',
    ],
    [{ 'hub.secret': 's'.repeat(200) }, 'hub.secret: must be 1 to 199 bytes'],
    [{ 'hub.secret': 'é'.repeat(100) }, 'hub.secret: must be 1 to 199 bytes'],
    [{ 'hub.secret': '' }, 'hub.secret: must be 1 to 199 bytes'],
    [{ 'hub.lease_seconds': 'abc' }, 'hub.lease_seconds: must be a positive integer'],
    [{ 'hub.lease_seconds': '-5' }, 'hub.lease_seconds: must be a positive integer'],
  ])('answers 400 with a JSON reason, one issue per field (case %#)', async (fields, reason) => {
    const res = await post(form(fields));
    expect(res.status).toBe(400);
    const body = refusal(res);
    expect(body.error).toBe('invalid_request');
    expect(body.reasons).toHaveLength(1);
    expect(body.reasons[0]).toContain(reason);
  });

  it('accepts a callback of exactly 2048 characters and a secret of 199 bytes', async () => {
    const callback = `https://127.0.0.1/${'a'.repeat(2048 - 'https://127.0.0.1/'.length)}`;
    expect(callback).toHaveLength(2048);
    expect(
      (await post(form({ 'hub.callback': callback, 'hub.secret': 's'.repeat(199) }))).status,
    ).toBe(202);
  });

  it('names every missing field, one issue each', async () => {
    const res = await post('foo=bar');
    expect(res.status).toBe(400);
    expect(refusal(res).reasons.sort()).toEqual([
      'hub.callback: is required',
      'hub.mode: is required',
      'hub.topic: is required',
    ]);
  });

  it('refuses a parameter given twice', async () => {
    const res = await post(`${form({})}&hub.callback=${encodeURIComponent(CALLBACK)}`);
    expect(res.status).toBe(400);
    expect(refusal(res).reasons).toEqual(['hub.callback: is given more than once']);
  });

  it('refuses a body that is not UTF-8', async () => {
    const res = await http(`${svc.url}/api/websub/hub`, {
      method: 'POST',
      headers: { 'Content-Type': FORM },
      body: Buffer.concat([Buffer.from(`${form({})}&x=`), Buffer.from([0xff, 0xfe])]),
    });
    expect(res.status).toBe(400);
    expect(refusal(res).error).toBe('invalid_request');
  });

  it.each([
    ['hub.secret', '%FF%FEsecret'],
    ['hub.secret', 'ok%C3'],
    ['hub.secret', '%ED%A0%80'],
    ['hub.callback', `${encodeURIComponent(CALLBACK)}%C0%AF`],
    ['hub.lease_seconds', '%FF'],
  ])(
    'refuses %s whose percent-encoded bytes are not UTF-8 (%s) with 400, never storing U+FFFD',
    async (field, raw) => {
      const fields = new URLSearchParams(form({}));
      fields.delete(field);
      const res = await post(`${fields.toString()}&${field}=${raw}`);
      expect(res.status).toBe(400);
      const body = refusal(res);
      expect(body.issues).toEqual([
        { path: [field], code: 'invalid_utf8', message: expect.any(String) as string },
      ]);
    },
  );

  it('keeps a valid percent-encoded UTF-8 secret and a stray % as they are', async () => {
    const res = await post(`${form({})}&hub.secret=%C3%A9t%C3%A9+100%`);
    expect(res.status).toBe(202);
  });

  it('does not echo the submitted values in its reasons', async () => {
    const res = await post(form({ 'hub.mode': '<script>alert(1)</script>' }));
    expect(res.text).not.toContain('script');
  });

  it('answers other methods with 405 and Allow: POST', async () => {
    const res = await http(`${svc.url}/api/websub/hub`);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toContain('POST');
  });

  it('is described in the OpenAPI document, form fields included', async () => {
    const doc = (await http(`${svc.url}/openapi.json`)).json<{
      paths: Record<
        string,
        {
          post?: {
            requestBody: {
              content: Record<
                string,
                { schema: { properties: Record<string, unknown>; required: string[] } }
              >;
            };
          };
        }
      >;
    }>();
    const schema = doc.paths['/api/websub/hub']!.post!.requestBody.content[FORM]!.schema;
    expect(Object.keys(schema.properties).sort()).toEqual([
      'hub.callback',
      'hub.lease_seconds',
      'hub.mode',
      'hub.secret',
      'hub.topic',
    ]);
    expect(schema.required.sort()).toEqual(['hub.callback', 'hub.mode', 'hub.topic']);
  });
});

describe('POST /api/websub/hub: rate limit', () => {
  let limited: TestService;
  beforeAll(async () => {
    limited = await startTestService({
      business: testBusiness(),
      reviews: testReviews(3),
      env: { WEBSUB_RATE_LIMIT_PER_MIN: '3', WEBSUB_CALLBACK_ALLOW_CIDRS: '127.0.0.0/8' },
    });
  });
  afterAll(() => limited.stop());

  it('answers 429 with Retry-After past the per-minute budget of a client address, invalid requests included', async () => {
    const send = (body: string) =>
      http(`${limited.url}/api/websub/hub`, {
        method: 'POST',
        headers: { 'Content-Type': FORM },
        body,
      });
    const statuses = [];
    for (const body of ['x=1', form({ 'hub.callback': 'https://127.0.0.1:9/a' }), 'x=2'])
      statuses.push((await send(body)).status);
    expect(statuses).toEqual([400, 202, 400]);
    const res = await send(form({}));
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refusal(res).error).toBe('too_many_requests');
  });
});

describe('POST /api/websub/hub: per-host cap', () => {
  let capped: TestService;
  beforeAll(async () => {
    capped = await startTestService({
      business: testBusiness(),
      reviews: testReviews(3),
      env: { WEBSUB_MAX_SUBSCRIPTIONS_PER_HOST: '2', WEBSUB_CALLBACK_ALLOW_CIDRS: '127.0.0.0/8' },
    });
  });
  afterAll(() => capped.stop());

  it('refuses a new callback on a host that holds the maximum, but lets an existing one renew', async () => {
    for (const name of ['one', 'two']) {
      await capped.store.websub.putSubscription(
        {
          topic: TOPICS.atom,
          callback: `https://127.0.0.2:9/${name}`,
          callbackHost: '127.0.0.2',
          secret: null,
          leaseSeconds: 3600,
          expiresAt: Date.now() + 3_600_000,
        },
        Date.now(),
      );
    }
    const send = (callback: string) =>
      http(`${capped.url}/api/websub/hub`, {
        method: 'POST',
        headers: { 'Content-Type': FORM },
        body: form({ 'hub.callback': callback }),
      });
    const refused = await send('https://127.0.0.2:9/three');
    expect(refused.status).toBe(403);
    expect(refusal(refused).message).toContain('too many subscriptions');
    expect((await send('https://127.0.0.2:9/one')).status).toBe(202);
    expect((await send('https://127.0.0.3:9/three')).status).toBe(202);
  });
});
