import { z } from 'zod';
import type { GbpSettings } from '../../config.js';
import { sendWithRetries, sourceFailed, type RequestCap } from './http.js';

/** The token endpoint's answer to a refresh-token grant (RFC 6749 5.1; extra members allowed). */
const TokenResponse = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().positive(),
});

/** A page of `accounts.locations.reviews.list` (lenient: Google may add members). */
const ReviewsPage = z.object({
  reviews: z.array(z.record(z.string(), z.unknown())).optional(),
  nextPageToken: z.string().optional(),
  averageRating: z.number().optional(),
  totalReviewCount: z.number().optional(),
});
export type ReviewsPage = z.infer<typeof ReviewsPage>;

/** The access token of a source, kept across its runs until shortly before it expires. */
export interface TokenCache {
  current: { value: string; expiresAt: number } | null;
}

/** An access token is renewed this long before it expires. */
const EXPIRY_MARGIN_MS = 60_000;

/** Google's error `status` (`PERMISSION_DENIED`), or OAuth's `error` (`invalid_grant`), if any. */
async function errorName(response: Response): Promise<string> {
  const body = (await response.json().catch(() => null)) as {
    error?: string | { status?: string };
  } | null;
  const name = typeof body?.error === 'string' ? body.error : body?.error?.status;
  return typeof name === 'string' && /^[\w.-]{1,64}$/.test(name) ? ` (${name})` : '';
}

/**
 * The Google Business Profile API as a source uses it: the OAuth 2.0 refresh-token grant against
 * `tokenUrl` (the access token kept until a minute before it expires; a 401 gets one refresh and
 * one retry), and the pages of a location's reviews, newest update first. Plain `fetch` (undici):
 * see docs/sources.md for why not google-auth-library.
 */
export function gbpClient(
  settings: GbpSettings,
  o: { cap: RequestCap; signal: AbortSignal; tokens: TokenCache },
) {
  async function refresh(): Promise<string> {
    const form = new URLSearchParams({
      grant_type: 'refresh_token',
      client_id: settings.clientId,
      client_secret: settings.clientSecret,
      refresh_token: settings.refreshToken,
    });
    const init = () => ({
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    const response = await sendWithRetries(settings.tokenUrl, init, o);
    if (!response.ok) {
      throw sourceFailed(
        `the token endpoint answered ${response.status}${await errorName(response)}`,
      );
    }
    const parsed = TokenResponse.safeParse(await response.json().catch(() => null));
    if (!parsed.success) throw sourceFailed('the token endpoint answered without an access token');
    const { access_token: value, expires_in: seconds } = parsed.data;
    o.tokens.current = { value, expiresAt: Date.now() + seconds * 1000 - EXPIRY_MARGIN_MS };
    return value;
  }

  const accessToken = (): Promise<string> => {
    const token = o.tokens.current;
    return token !== null && token.expiresAt > Date.now()
      ? Promise.resolve(token.value)
      : refresh();
  };

  async function get(url: string): Promise<Response> {
    const send = (value: string) =>
      sendWithRetries(url, () => ({ headers: { authorization: `Bearer ${value}` } }), o);
    const first = await send(await accessToken());
    if (first.status !== 401) return first;
    await first.body?.cancel();
    o.tokens.current = null;
    return send(await refresh());
  }

  return {
    /** One page of the location's reviews, newest update first (`pageToken`: the next one). */
    async reviews(pageToken?: string): Promise<ReviewsPage> {
      const url = new URL(`${settings.apiBaseUrl}/v4/${settings.location}/reviews`);
      url.searchParams.set('pageSize', '50');
      url.searchParams.set('orderBy', 'updateTime desc');
      if (pageToken !== undefined) url.searchParams.set('pageToken', pageToken);
      const response = await get(url.toString());
      if (!response.ok) {
        throw sourceFailed(
          `Google answered ${response.status}${await errorName(response)} to reviews.list`,
        );
      }
      const page = ReviewsPage.safeParse(await response.json().catch(() => null));
      if (!page.success) throw sourceFailed('Google answered reviews.list with an unexpected body');
      return page.data;
    },
  };
}

export type GbpClient = ReturnType<typeof gbpClient>;
