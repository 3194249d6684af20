import { OAuth2Client } from 'google-auth-library';
import type { GbpSettings } from '../../config.js';
import { isServiceError } from '../../platform/errors.js';
import { sendWithRetries, sourceFailed, type RequestCap } from './http.js';

export type { OAuth2Client };

/** An access token is renewed this long before it expires. */
const EXPIRY_MARGIN_MS = 60_000;

/** Where the client's requests go out: the source's cap and the signal of the run under way. */
interface Sending {
  cap: RequestCap;
  signal: AbortSignal;
}

const sendingOf = new WeakMap<OAuth2Client, Sending>();

/**
 * The source's OAuth 2.0 client (google-auth-library's `OAuth2Client`), kept across its runs:
 * the refresh-token grant (form-encoded `grant_type=refresh_token`, `client_id`,
 * `client_secret`, `refresh_token`) against `GBP_TOKEN_URL`, and the access token kept until a
 * minute before it expires. Its requests go through the source's own `sendWithRetries` (the cap
 * of 300 a minute, 429 and 5xx retried with backoff, plain undici `fetch`): the library's own
 * retries are turned off, so a request is never retried twice over.
 */
export function oauthClient(settings: GbpSettings, cap: RequestCap): OAuth2Client {
  const sending: Sending = { cap, signal: new AbortController().signal };
  const fetchImplementation = ((url: string | URL, init: RequestInit = {}) =>
    sendWithRetries(
      String(url),
      () => ({
        method: init.method ?? 'POST',
        headers: init.headers ?? {},
        body: init.body ?? null,
      }),
      sending,
    )) as typeof fetch;
  const client = new OAuth2Client({
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    endpoints: { oauth2TokenUrl: settings.tokenUrl },
    eagerRefreshThresholdMillis: EXPIRY_MARGIN_MS,
    transporterOptions: { fetchImplementation },
  });
  client.transporter.interceptors.request.add({
    resolved: async (config) => ({
      ...config,
      retry: false,
      retryConfig: { ...config.retryConfig, retry: 0 },
    }),
  });
  client.setCredentials({ refresh_token: settings.refreshToken });
  sendingOf.set(client, sending);
  return client;
}

/** OAuth's `error` (`invalid_grant`) of a failed grant, if the token endpoint named one. */
function errorName(data: unknown): string {
  const name = (data as { error?: unknown } | null)?.error;
  return typeof name === 'string' && /^[\w.-]{1,64}$/.test(name) ? ` (${name})` : '';
}

/**
 * A failed grant as a one-line `source_failed` that holds no secret: the library's errors carry
 * the request (its body holds the client secret and the refresh token), so only the status and
 * OAuth's error name are kept, or the reason `sendWithRetries` gave.
 */
function grantFailed(err: unknown): Error {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (isServiceError(e)) return e;
  }
  const response = (err as { response?: { status?: unknown; data?: unknown } }).response;
  if (typeof response?.status === 'number') {
    return sourceFailed(
      `the token endpoint answered ${response.status}${errorName(response.data)}`,
    );
  }
  return sourceFailed('the token endpoint answered without an access token');
}

/**
 * The client's access token, for a run (`signal`): the one it holds until a minute before it
 * expires, else a new one from the token endpoint. After a 401, call `client.setCredentials`
 * with the refresh token alone first: the next call refreshes.
 */
export async function accessToken(client: OAuth2Client, signal: AbortSignal): Promise<string> {
  sendingOf.get(client)!.signal = signal;
  let token: string | null | undefined;
  try {
    token = (await client.getAccessToken()).token;
  } catch (err) {
    throw grantFailed(err);
  }
  if (!token) throw sourceFailed('the token endpoint answered without an access token');
  return token;
}
