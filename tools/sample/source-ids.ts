import { STORE } from './dealership.js';
import { mix32 } from './prng.js';

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * A Google review id shaped like the ones in Maps links (`ChZDSUhNMG9nS0VJQ0FnSUQ...EAE`): a
 * protobuf wrapper, base64url-encoded, around an inner id. The inner id's last 32 bits are an
 * invertible scramble of the review's index, so ids never collide, whatever the count.
 */
export function googleReviewId(seed: number, index: number): { id: string; inner: string } {
  const x = (Math.imul(index + 1, 0x9e3779b1) ^ mix32(seed, 0x51ed)) >>> 0;
  const hi = mix32(seed, index) & 0x3ff;
  let tail = B64[hi >>> 4]! + B64[((hi & 0xf) << 2) | (x >>> 30)]!;
  for (let shift = 24; shift >= 0; shift -= 6) tail += B64[(x >>> shift) & 0x3f]!;
  const inner = `CIHM0ogKEICAgID${tail}`;
  const bytes = Buffer.concat([
    Buffer.from([0x0a, inner.length]),
    Buffer.from(inner, 'ascii'),
    Buffer.from([0x10, 0x01]),
  ]);
  return { id: bytes.toString('base64url'), inner };
}

/** A Google Maps link to one review of the store. */
export function googleReviewUrl(id: string, inner: string): string {
  return `https://www.google.com/maps/reviews/data=!4m8!14m7!1m6!2m5!1s${id}!2m1!1s${STORE.mapsFeatureId}!3m1!1s2@1:${inner}`;
}

/** A DealerRater link to one review on the store's page. */
export function dealerRaterReviewUrl(id: number): string {
  return `https://www.dealerrater.com/dealer/${STORE.dealerRaterSlug}-review-${STORE.dealerRaterId}/#review-${id}`;
}
