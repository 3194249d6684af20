import { z } from 'zod';

/** Longest accepted `hub.callback`, in characters. */
export const MAX_CALLBACK_LENGTH = 2048;
/** `hub.secret` must be shorter than this many bytes (UTF-8), as WebSub requires. */
export const MAX_SECRET_BYTES = 200;

/** Lease bounds in seconds (from the configuration). */
export interface LeaseBounds {
  minSeconds: number;
  defaultSeconds: number;
  maxSeconds: number;
}

/** A valid subscription request. */
export interface HubRequest {
  mode: 'subscribe' | 'unsubscribe';
  topic: string;
  /** Parsed `hub.callback`; `href` is the canonical callback kept with the subscription. */
  callback: URL;
  secret: string | null;
  /** The lease granted (clamped); null for unsubscribe, which ignores `hub.lease_seconds`. */
  leaseSeconds: number | null;
}

const required = (message: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? 'is required' : message;

const callbackField = z
  .string({ error: required('must be a string') })
  .max(MAX_CALLBACK_LENGTH, `must be at most ${MAX_CALLBACK_LENGTH} characters`)
  .transform((text, ctx) => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be an absolute https URL' });
      return z.NEVER;
    }
    const fail = (message: string) => {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    };
    if (url.protocol === 'http:') return fail('must use https (plain http callbacks are refused)');
    if (url.protocol !== 'https:') return fail('must be an absolute https URL');
    if (url.username || url.password) return fail('must not contain a user name or password');
    if (text.includes('#')) return fail('must not contain a fragment');
    return url;
  });

/**
 * The form of `POST /api/websub/hub` (application/x-www-form-urlencoded, UTF-8), for the given
 * topic URLs. It validates every field and documents it (the OpenAPI description is generated
 * from it); parameters it does not name are ignored, as WebSub requires.
 */
export function hubFormSchema(topics: readonly [string, ...string[]]) {
  return z.object({
    'hub.mode': z
      .enum(['subscribe', 'unsubscribe'], { error: required('must be subscribe or unsubscribe') })
      .describe('subscribe or unsubscribe; anything else (publish included) is refused.'),
    'hub.topic': z
      .enum(topics, { error: required('must be one of the topic URLs this hub serves') })
      .describe(
        'Exactly one of the topic URLs (the rel="self" of /feed.xml, /api/feed.json, /reviews.json).',
      ),
    'hub.callback': callbackField.describe(
      `Absolute https URL of the subscriber, at most ${MAX_CALLBACK_LENGTH} characters, without user info or fragment. Its host must not be, or resolve to, a private, loopback, link-local or otherwise reserved address.`,
    ),
    'hub.secret': z
      .string()
      .refine(
        (s) => s.length > 0 && Buffer.byteLength(s, 'utf8') < MAX_SECRET_BYTES,
        `must be 1 to ${MAX_SECRET_BYTES - 1} bytes`,
      )
      .optional()
      .describe(
        `Optional, 1 to ${MAX_SECRET_BYTES - 1} bytes: deliveries then carry X-Hub-Signature: sha256=<hex HMAC of the body>.`,
      ),
    'hub.lease_seconds': z
      .string()
      .optional()
      .describe(
        'Optional lease in seconds (a decimal integer), clamped to the hub bounds; ignored for unsubscribe.',
      ),
  });
}

export type HubForm = z.infer<ReturnType<typeof hubFormSchema>>;

/** Grants a lease: the requested one clamped to the bounds, or the default. Null when malformed. */
export function grantLease(requested: string | undefined, bounds: LeaseBounds): number | null {
  if (requested === undefined) return bounds.defaultSeconds;
  if (!/^\d{1,15}$/.test(requested)) return null;
  return Math.min(bounds.maxSeconds, Math.max(bounds.minSeconds, Number(requested)));
}
