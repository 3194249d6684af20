/**
 * A local stand-in of the Google Business Profile API (v4 `accounts.locations.reviews.list`) and
 * Google's OAuth 2.0 token endpoint, written from Google's published reference: pages of at most
 * `pageSize` (50 at most) reviews in `updateTime desc` order with `nextPageToken`, the
 * refresh-token grant (form-encoded), 401 `UNAUTHENTICATED` for an unknown or expired access
 * token, and 429 `RESOURCE_EXHAUSTED` with `Retry-After` when told to throttle. Nothing calls Google.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const LOCATION = 'accounts/1234/locations/5678';
export const CLIENT_ID = 'stand-in-client.apps.googleusercontent.com';
export const CLIENT_SECRET = 'stand-in-client-secret-do-not-log';
export const REFRESH_TOKEN = '1//stand-in-refresh-token-do-not-log';

/** What no log line, error or output may hold: the secrets, and any access token it issues. */
export const STAND_IN_SECRETS = [CLIENT_SECRET, REFRESH_TOKEN, 'ya29.'] as const;

export interface GbpReview {
  name: string;
  reviewId: string;
  reviewer: { displayName?: string; profilePhotoUrl?: string; isAnonymous?: boolean };
  starRating: 'ONE' | 'TWO' | 'THREE' | 'FOUR' | 'FIVE';
  comment?: string;
  createTime: string;
  updateTime: string;
  reviewReply?: { comment: string; updateTime: string };
}

const STARS = ['ONE', 'TWO', 'THREE', 'FOUR', 'FIVE'] as const;

/** A review as Google lists it, created (and last updated) at `at`. */
export function gbpReview(id: string, at: string, extra: Partial<GbpReview> = {}): GbpReview {
  return {
    name: `${LOCATION}/reviews/${id}`,
    reviewId: id,
    reviewer: { displayName: `Customer ${id}`, profilePhotoUrl: 'https://example.com/p.png' },
    starRating: STARS[id.length % 5]!,
    comment: `Bought a car, review ${id}.`,
    createTime: at,
    updateTime: at,
    ...extra,
  };
}

function json(res: ServerResponse, status: number, body: unknown, headers = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

const googleError = (code: number, status: string, message: string) => ({
  error: { code, message, status },
});

async function form(req: IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of req) body += String(chunk);
  return new URLSearchParams(body);
}

export interface GbpStandIn {
  url: string;
  /** The reviews by id; edit them freely between runs. */
  reviews: Map<string, GbpReview>;
  /** Requests served: `token`, or the list's query (`pageSize=50&orderBy=...`). */
  requests: string[];
  /** Every access token issued so far stops working (the next call answers 401). */
  expireTokens(): void;
  /** The next `count` token requests answer 503 (with `Retry-After: 0`). */
  failTokens(count: number): void;
  /** The `expires_in` of the access tokens issued from now on (3599 by default). */
  tokenLifetime(seconds: number): void;
  /** The next `count` list calls answer 429 with `Retry-After: seconds`. */
  throttle(count: number, seconds: number): void;
  /** Each list call answers after this long (to see runs that overlap). */
  slowDown(ms: number): void;
  /** The most list calls in flight at once so far. */
  maxInFlight(): number;
  close(): Promise<void>;
}

export async function startGbpStandIn(): Promise<GbpStandIn> {
  const reviews = new Map<string, GbpReview>();
  const requests: string[] = [];
  const live = new Set<string>();
  let issued = 0;
  let throttled = { count: 0, seconds: 0 };
  let failingTokens = 0;
  let lifetime = 3599;
  let slowMs = 0;
  let inFlight = 0;
  let maxInFlight = 0;

  async function token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    requests.push('token');
    const f = await form(req);
    if (failingTokens > 0) {
      failingTokens--;
      return json(res, 503, { error: 'temporarily_unavailable' }, { 'retry-after': '0' });
    }
    const ok =
      f.get('grant_type') === 'refresh_token' &&
      f.get('client_id') === CLIENT_ID &&
      f.get('client_secret') === CLIENT_SECRET &&
      f.get('refresh_token') === REFRESH_TOKEN;
    if (!ok) return json(res, 400, { error: 'invalid_grant', error_description: 'Bad Request' });
    const value = `ya29.stand-in-access-${++issued}`;
    live.add(value);
    json(res, 200, { access_token: value, expires_in: lifetime, token_type: 'Bearer' });
  }

  async function list(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    requests.push(url.search.slice(1));
    maxInFlight = Math.max(maxInFlight, ++inFlight);
    try {
      if (slowMs > 0) await new Promise((resolve) => setTimeout(resolve, slowMs));
      answer(req, res, url);
    } finally {
      inFlight--;
    }
  }

  function answer(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (bearer === undefined || !live.has(bearer)) {
      return json(
        res,
        401,
        googleError(401, 'UNAUTHENTICATED', 'Request had invalid credentials.'),
      );
    }
    if (throttled.count > 0) {
      throttled.count--;
      const body = googleError(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded.');
      return json(res, 429, body, { 'retry-after': String(throttled.seconds) });
    }
    const size = Math.min(50, Number(url.searchParams.get('pageSize') ?? 50) || 50);
    const from = Number(url.searchParams.get('pageToken') ?? 0);
    const all = [...reviews.values()].sort((a, b) => b.updateTime.localeCompare(a.updateTime));
    const page = all.slice(from, from + size);
    const stars = all.reduce((sum, r) => sum + STARS.indexOf(r.starRating) + 1, 0);
    json(res, 200, {
      reviews: page,
      averageRating: all.length ? stars / all.length : 0,
      totalReviewCount: all.length,
      ...(from + size < all.length && { nextPageToken: String(from + size) }),
    });
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    if (req.method === 'POST' && url.pathname === '/token') return void token(req, res);
    if (req.method === 'GET' && url.pathname === `/v4/${LOCATION}/reviews`)
      return list(req, res, url);
    json(res, 404, googleError(404, 'NOT_FOUND', 'Requested entity was not found.'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    reviews,
    requests,
    expireTokens: () => live.clear(),
    throttle: (count, seconds) => void (throttled = { count, seconds }),
    failTokens: (count) => void (failingTokens = count),
    tokenLifetime: (seconds) => void (lifetime = seconds),
    slowDown: (ms) => void (slowMs = ms),
    maxInFlight: () => maxInFlight,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The service's `GBP_*` variables for a stand-in. */
export function gbpEnv(standIn: GbpStandIn): Record<string, string> {
  return {
    GBP_LOCATION: LOCATION,
    GBP_CLIENT_ID: CLIENT_ID,
    GBP_CLIENT_SECRET: CLIENT_SECRET,
    GBP_REFRESH_TOKEN: REFRESH_TOKEN,
    GBP_API_BASE_URL: standIn.url,
    GBP_TOKEN_URL: `${standIn.url}/token`,
  };
}
