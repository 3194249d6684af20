import { z } from 'zod';
import type { GbpSettings } from '../../config.js';
import { sendWithRetries, sourceFailed, type RequestCap } from './http.js';
import { accessToken, type OAuth2Client } from './oauth.js';

/** A page of `accounts.locations.reviews.list` (lenient: Google may add members). */
const ReviewsPage = z.object({
  reviews: z.array(z.record(z.string(), z.unknown())).optional(),
  nextPageToken: z.string().optional(),
  averageRating: z.number().optional(),
  totalReviewCount: z.number().optional(),
});
export type ReviewsPage = z.infer<typeof ReviewsPage>;

/** Google's error `status` (`PERMISSION_DENIED`), or OAuth's `error` (`invalid_grant`), if any. */
async function errorName(response: Response): Promise<string> {
  const body = (await response.json().catch(() => null)) as {
    error?: string | { status?: string };
  } | null;
  const name = typeof body?.error === 'string' ? body.error : body?.error?.status;
  return typeof name === 'string' && /^[\w.-]{1,64}$/.test(name) ? ` (${name})` : '';
}

/**
 * The Google Business Profile API as a source uses it: the OAuth 2.0 refresh-token grant of
 * `tokens` (see `oauthClient`: the access token kept until a minute before it expires; a 401
 * gets one refresh and one retry), and the pages of a location's reviews, newest update first.
 */
export function gbpClient(
  settings: GbpSettings,
  o: { cap: RequestCap; signal: AbortSignal; tokens: OAuth2Client },
) {
  const sending = { cap: o.cap, signal: o.signal };
  async function get(url: string): Promise<Response> {
    const send = (value: string) =>
      sendWithRetries(url, () => ({ headers: { authorization: `Bearer ${value}` } }), sending);
    const first = await send(await accessToken(o.tokens, o.signal));
    if (first.status !== 401) return first;
    await first.body?.cancel();
    o.tokens.setCredentials({ refresh_token: settings.refreshToken });
    return send(await accessToken(o.tokens, o.signal));
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
